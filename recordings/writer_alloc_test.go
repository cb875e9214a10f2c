//go:build !race

// The race detector allocates on its own: counting allocations means
// nothing under it.

package recordings

import (
	"io"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Recording a message allocates nothing: its line is built and encoded in
// memory the Writer reuses, its bytes written as text without a copy.
func TestAppendAllocatesNothing(t *testing.T) {
	w, _ := NewWriter(io.Discard, Header{Proxy: "p"}, Options{SecretHeaders: []string{"Authorization"}})
	defer w.Close()
	raw := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}` + "\n")
	m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
	if err != nil {
		t.Fatal(err)
	}
	f := capture.Frame{Dir: capture.In, Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m, Fields: jsonrpc.LineFields(raw), Time: time.Now()}
	if n := testing.AllocsPerRun(1000, func() { w.Append(&f) }); n >= 1 {
		t.Errorf("%.1f allocations per message recorded, want none", n)
	}
}
