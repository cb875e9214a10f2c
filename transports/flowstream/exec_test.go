package flowstream

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/proto/flow"
)

func TestReadExecStreamHeader(t *testing.T) {
	h := flow.ExecStreamHeader{RequestID: 42, StreamTag: 1}
	want := h.Append(nil)
	rh, raw, fields, err := ReadExecStreamHeader(bytes.NewReader(append(want, "payload"...)))
	if err != nil || rh != h || !bytes.Equal(raw, want) || len(fields) != 2 {
		t.Fatalf("Read = %+v % x %+v %v", rh, raw, fields, err)
	}
	for _, cut := range []int{0, 3, 7} {
		_, raw, _, err := ReadExecStreamHeader(bytes.NewReader(want[:cut]))
		if !errors.Is(err, io.ErrUnexpectedEOF) || !bytes.Equal(raw, want[:cut]) {
			t.Fatalf("Read cut %d: % x %v", cut, raw, err)
		}
	}
	if _, _, _, err := ReadExecStreamHeader(&errReader{want[:2]}); !errors.Is(err, errReset) {
		t.Fatalf("transport error lost: %v", err)
	}
}
