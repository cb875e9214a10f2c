package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/webtransport-go"
)

// lying_length: the next bytes on the control stream are a prefix of
// 0xFFFFFFFF followed by the start of a body, and no answer.
func TestMisbehaveLyingLength(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	close(c.stop) // the reader stops after the next frame: the raw bytes are read here
	c.requestTool(2, "misbehave", map[string]any{"mode": "lying_length"})
	f := c.next()
	var tooLarge *flow.FrameTooLargeError
	if !errors.As(f.err, &tooLarge) || tooLarge.Size != 0xFFFFFFFF || !bytes.Equal(f.frame, []byte{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("frame % x, err %v", f.frame, f.err)
	}
	rest := make([]byte, 16)
	if _, err := io.ReadFull(c.ctrl, rest); err != nil || !bytes.HasPrefix([]byte(lyingBody), rest) {
		t.Errorf("bytes after the prefix %q (%v)", rest, err)
	}
}

// wrong_encoding: with CBOR in force a JSON frame arrives, then the result
// in CBOR; with JSON in force a CBOR frame arrives, then the result in JSON.
func TestMisbehaveWrongEncoding(t *testing.T) {
	srv := startServer(t, Config{})
	for _, offer := range []string{"cbor", "json"} {
		c := connect(t, srv)
		c.initialize([]string{offer})
		c.requestTool(2, "misbehave", map[string]any{"mode": "wrong_encoding"})
		wrong := c.next()
		if _, err := jsonrpc.Decode(c.enc, wrong.body); err == nil {
			t.Errorf("%s in force: the misbehaving frame decodes in it: % x", offer, wrong.body[:8])
		}
		other := proto.EncJSON
		if c.enc == proto.EncJSON {
			other = proto.EncCBOR
		}
		if m, err := jsonrpc.Decode(other, wrong.body); err != nil || m.Method != mcp.MethodNotifyMessage {
			t.Errorf("%s in force: the frame is not a %s notification: %v", offer, other, err)
		}
		if offer == "cbor" && !json.Valid(wrong.body) || offer == "json" && wrong.body[0]&0xe0 != 0xa0 {
			t.Errorf("%s in force: frame % x", offer, wrong.body[:8])
		}
		res := c.await(2, nil)
		if !strings.Contains(string(res.Result), "while "+offer+" is in force") {
			t.Errorf("%s in force: result %s", offer, res.Result)
		}
	}
}

// foreign_stream: an execution stream arrives whose header names a request
// id that is not in flight, carrying ForeignPayload.
func TestMisbehaveForeignStream(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	c.requestTool(2, "misbehave", map[string]any{"mode": "foreign_stream"})
	str, h := c.acceptStream()
	payload, err := io.ReadAll(str)
	if err != nil || h.RequestID == 2 || h.RequestID != 0xFFFFFFFF || string(payload) != ForeignPayload {
		t.Errorf("header %+v, payload %q (%v)", h, payload, err)
	}
	if res := c.await(2, nil); !strings.Contains(string(res.Result), "4294967295") {
		t.Errorf("result %s", describe(res))
	}
}

// stream_error: a stream of this request carries (a prefix of) header and
// payload and is then reset with StreamCodeAborted; $/streamError names the
// request and the tag, and the result refers to the stream.
func TestMisbehaveStreamError(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	c.requestTool(3, "misbehave", map[string]any{"mode": "stream_error"})
	ctx, cancel := withHang()
	defer cancel()
	str, err := c.sess.AcceptUniStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(str)
	var se *webtransport.StreamError
	if !errors.As(err, &se) || se.ErrorCode != StreamCodeAborted || !se.Remote {
		t.Fatalf("stream ended with %v", err)
	}
	want := flow.ExecStreamHeader{RequestID: 3, StreamTag: 1}.Append(nil)
	for i := 0; i < 4096; i++ {
		want = append(want, demo.GeneratedByte(int64(i), 0))
	}
	t.Logf("%d bytes arrived before the reset", len(got))
	if !bytes.HasPrefix(want, got) {
		t.Errorf("stream bytes % x are not a prefix of header+payload", got[:min(len(got), 16)])
	}
	var notice *jsonrpc.Message
	res := c.await(3, func(m *jsonrpc.Message) {
		if m.Method == flow.MethodFlowStreamError {
			notice = m
		}
	})
	var p struct {
		RequestID uint32 `json:"requestId"`
		StreamTag uint32 `json:"streamTag"`
		Error     string `json:"error"`
	}
	if notice == nil || json.Unmarshal(notice.Params, &p) != nil || p.RequestID != 3 || p.StreamTag != 1 || p.Error == "" {
		t.Errorf("$/streamError %s", describe(notice))
	}
	if !strings.Contains(string(res.Result), `"type":"ref/stream","streamTag":1`) {
		t.Errorf("result %s", res.Result)
	}
}

// datagram_flood: 50,000 log datagrams go out, then the result; every one
// that arrives is a log datagram of this request.
func TestMisbehaveDatagramFlood(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	stop := make(chan struct{})
	got := c.collectDatagrams(stop)
	res := c.toolCall(4, "misbehave", map[string]any{"mode": "datagram_flood"})
	close(stop)
	if !strings.Contains(string(res.Result), "flood sent: 50000 log datagrams") {
		t.Fatalf("result %s", describe(res))
	}
	dgs := <-got
	if len(dgs) == 0 {
		t.Fatal("no datagram arrived")
	}
	for _, d := range dgs {
		if !bytes.Equal(d.raw[:6], []byte{0x03, 0x00, 0, 0, 0, 4}) {
			t.Fatalf("datagram header % x", d.raw[:6])
		}
		l, err := flow.DecodeLogDatagram(proto.EncCBOR, d.payload)
		if err != nil || l.Logger != "flood" {
			t.Fatalf("log payload %+v (%v)", l, err)
		}
	}
	t.Logf("%d of 50000 flood datagrams arrived", len(dgs))
}

// drop: the QUIC connection closes abruptly, and no answer arrives.
func TestMisbehaveDrop(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	c.requestTool(5, "misbehave", map[string]any{"mode": "drop"})
	f := c.next()
	if f.err == nil {
		t.Fatalf("a frame arrived after drop: % x", f.frame)
	}
	// The close reaches the client either as the server's application error
	// or, when http3's datagram reader sees it first, as a local
	// H3_DATAGRAM_ERROR (a quic.ApplicationError or an http3.Error, as the
	// race between the two readers goes) that quotes it; each carries the
	// server's reason.
	var ae *quic.ApplicationError
	var he *http3.Error
	switch {
	case errors.As(f.err, &ae) && strings.Contains(ae.ErrorMessage, "misbehave drop"):
	case errors.As(f.err, &he) && strings.Contains(he.ErrorMessage, "misbehave drop"):
	default:
		t.Errorf("control stream ended with %v", f.err)
	}
	ctx, cancel := withHang()
	defer cancel()
	select {
	case <-c.sess.Context().Done():
	case <-ctx.Done():
		t.Error("the session outlived the dropped connection")
	}
}
