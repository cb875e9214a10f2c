package ws

import (
	"context"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// streamOf returns the captured stream labelled label; the test fails
// when there is none.
func streamOf(t *testing.T, st *capture.Store, label string) capture.StreamStats {
	t.Helper()
	for _, s := range st.Streams() {
		if s.Label.Text == label {
			return s
		}
	}
	t.Fatalf("no stream labelled %q in %+v", label, st.Streams())
	return capture.StreamStats{}
}

// A start's totalSize becomes the captured stream's size with the first
// chunk its opener sends: the client's start of a download, whose
// totalSize asks the server for that much and which carries no chunk,
// has no size; the client's upload has its own once its first chunk
// goes; the server's stream has the size it announced once its first
// chunk comes, however the stream ends.
func TestGatewaySizeIsTheStreamsOwn(t *testing.T) {
	reply := mustGUID("11111111-2222-3333-4444-555555555555")
	six := int64(6)
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		w := func(typ websocket.MessageType, b []byte) { _ = c.Write(ctx, typ, b) }
		if _, _, err := c.Read(ctx); err != nil { // the client's start of the download
			return
		}
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamStart, ID: reply, Meta: &gateway.StreamMeta{Method: "out", Binary: true, TotalSize: &six}}))
		w(websocket.MessageBinary, gateway.AppendGatewayChunk(nil, reply, 0, []byte("abc")))
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamError, ID: reply, Error: &jsonrpc.Error{Code: -32000, Message: "cut"}}))
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	})
	tr, _, st, ev := dialGateway(t, p.url)
	asked := int64(1 << 20)
	download := gateway.NewGUID()
	if err := tr.SendStream(ctxT(t), &gateway.StreamMessage{Type: gateway.StreamStart, ID: download, Meta: &gateway.StreamMeta{Method: "ask", Binary: true, TotalSize: &asked}}); err != nil {
		t.Fatal(err)
	}
	if err := tr.SendStream(ctxT(t), &gateway.StreamMessage{Type: gateway.StreamDone, ID: download}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, 3)
	if s := streamOf(t, st, "ask"); s.Size != -1 || s.Bytes != 0 || s.State != capture.StreamDone {
		t.Errorf("the client's start of a download: size %d, %d bytes, %s; want no size", s.Size, s.Bytes, s.State)
	}
	if s := streamOf(t, st, "out"); s.Size != 6 || s.Bytes != 3 || s.State != capture.StreamError {
		t.Errorf("the server's stream: size %d, %d bytes, %s; want 3 of 6 bytes", s.Size, s.Bytes, s.State)
	}

	five := int64(5)
	if err := tr.SendStream(ctxT(t), &gateway.StreamMessage{Type: gateway.StreamStart, ID: knownGUID, Meta: &gateway.StreamMeta{Method: "in", Binary: true, TotalSize: &five}}); err != nil {
		t.Fatal(err)
	}
	if s := streamOf(t, st, "in"); s.Size != -1 {
		t.Errorf("an upload before its first chunk: size %d, want none yet", s.Size)
	}
	if err := tr.SendChunk(ctxT(t), knownGUID, 0, []byte("ab")); err != nil {
		t.Fatal(err)
	}
	if s := streamOf(t, st, "in"); s.Size != 5 || s.Bytes != 2 {
		t.Errorf("an upload after its first chunk: size %d, %d bytes; want 2 of 5", s.Size, s.Bytes)
	}
}
