package recordings

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// A message this side sent comes with no bytes of its own; its encoding
// is the frame's bytes, so its line points into them instead of keeping
// the body a second time, and it reads back whole.
func TestSentMessageIsARangeOfItsBytes(t *testing.T) {
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(7), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "é\u2028<>"}})
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	line := append(bytes.Clone(body), '\n')
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Transport: "stdio"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(&capture.Frame{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: line, Size: len(line), Enc: proto.EncJSON, Msg: m})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if strings.Contains(text, `"mtext"`) || !strings.Contains(text, `"msg":[0,`) {
		t.Fatalf("the line keeps the body beside its bytes:\n%s", text)
	}
	_, recs, err := readAll(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := recs[0].Frame.Msg
	if got == nil || got.Method != "tools/call" || got.ID.String() != m.ID.String() || !bytes.Equal(got.Params, m.Params) {
		t.Fatalf("read back %+v, want %+v", got, m)
	}
}

// A message whose encoding is not in the frame's bytes (a CBOR frame, or
// bytes encoded another way) keeps its body beside them.
func TestSentMessageNotInItsBytesKeepsItsBody(t *testing.T) {
	m, err := jsonrpc.NewNotification("notifications/initialized", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*capture.Frame{
		{Dir: capture.Out, Raw: []byte("{ \"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\" }\n"), Enc: proto.EncJSON, Msg: m},
		{Dir: capture.Out, Raw: []byte{0xa2, 0x67}, Enc: proto.EncCBOR, Msg: m},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Header{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		w.Append(f)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), `"mtext":"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"`) {
			t.Fatalf("%s frame: the body is not kept:\n%s", f.Enc, buf.String())
		}
	}
}
