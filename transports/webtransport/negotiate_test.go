package webtransport

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// firstFrameCase runs a session whose server picks choose and reports the
// client's first frame and the body of its second.
func runNegotiation(t *testing.T, offer []string, choose string) (first, second []byte, store *capture.Store) {
	t.Helper()
	frames := make(chan []byte, 2)
	ts := wttest.NewServer(t, func(p *wttest.Peer) {
		first, ok := p.Handshake(choose)
		frames <- first
		if !ok {
			return
		}
		raw, body, err := p.ReadFrame() // the tools/list request
		if err != nil {
			t.Errorf("server: %v", err)
			return
		}
		frames <- raw
		m, err := jsonrpc.Decode(p.Enc, body)
		if err != nil {
			t.Errorf("server: the request after negotiation is not %s: %v", p.Enc, err)
			return
		}
		p.Result(*m.ID, map[string]any{"tools": []any{}})
		for _, ok := p.Next(); ok; _, ok = p.Next() {
		}
	})
	s, _, store := connect(t, ts, func(c *Config) { c.Encodings = offer }, client.Options{})
	if _, err := s.Call(testCtx(t), mcp.MethodToolsList, nil); err != nil {
		t.Fatalf("tools/list after negotiating %s: %v", choose, err)
	}
	return <-frames, <-frames, store
}

func TestFirstFrameIsLengthPrefixedJSONInitializeWithOffer(t *testing.T) {
	first, second, store := runNegotiation(t, nil, "cbor")
	n := binary.BigEndian.Uint32(first[:4])
	if int(n) != len(first)-4 {
		t.Fatalf("length prefix %d, body is %d bytes", n, len(first)-4)
	}
	var init struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Transport       json.RawMessage `json:"transport"`
		} `json:"params"`
	}
	if err := json.Unmarshal(first[4:], &init); err != nil || init.Method != "initialize" {
		t.Fatalf("first frame body is not a JSON initialize: %v %q", err, first[4:])
	}
	if string(init.Params.Transport) != `{"type":"mcp-flow","version":"0.1","encodings":["cbor","json"]}` {
		t.Fatalf("transport offer %s", init.Params.Transport)
	}
	// After negotiating CBOR, the client's frames are CBOR maps, not JSON.
	body := second[4:]
	if json.Valid(body) || body[0]>>5 != 5 {
		t.Fatalf("frame after negotiation is not a CBOR map: % x", body[:min(16, len(body))])
	}
	if _, err := jsonrpc.Decode(proto.EncCBOR, body); err != nil {
		t.Fatal(err)
	}
	out := controlFrames(store, capture.Out)
	if len(out) < 3 || out[0].Enc != proto.EncJSON || out[1].Enc != proto.EncCBOR || out[2].Enc != proto.EncCBOR {
		t.Fatalf("captured Out frames: %d, encodings want json then cbor", len(out))
	}
	if out[0].Fields[0].Name != "length" || out[0].Fields[0].Len != 4 || out[0].Msg.Method != "initialize" {
		t.Fatalf("captured initialize frame: fields %+v msg %+v", out[0].Fields, out[0].Msg)
	}
	in := controlFrames(store, capture.In)
	if len(in) < 2 || in[0].Enc != proto.EncJSON || in[1].Enc != proto.EncCBOR || in[1].Msg == nil {
		t.Fatalf("captured In frames: want the JSON initialize result then CBOR")
	}
}

func TestJSONStaysJSON(t *testing.T) {
	for _, c := range []struct {
		name   string
		offer  []string
		choose string
	}{
		{"forced json", []string{"json"}, "json"},
		{"server picks json", nil, "json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			first, second, _ := runNegotiation(t, c.offer, c.choose)
			if !json.Valid(second[4:]) {
				t.Fatalf("frame after negotiating json is not JSON: %q", second[4:])
			}
			want := []string{"cbor", "json"}
			if c.offer != nil {
				want = c.offer
			}
			var init struct {
				Params struct {
					Transport TransportOffer `json:"transport"`
				} `json:"params"`
			}
			if err := json.Unmarshal(first[4:], &init); err != nil || !reflect.DeepEqual(init.Params.Transport.Encodings, want) {
				t.Fatalf("offered %v (%v), want %v", init.Params.Transport.Encodings, err, want)
			}
		})
	}
}

func TestEncodingNotOfferedEndsSession(t *testing.T) {
	ts := wttest.NewServer(t, func(p *wttest.Peer) {
		p.AnswerInitialize("cbor")
		p.ReadFrame() // until the client goes
	})
	tr, _ := newTransport(t, ts, func(c *Config) { c.Encodings = []string{"json"} })
	s := client.New(tr, client.Options{})
	defer s.Close()
	err := s.Connect(testCtx(t))
	var pe *client.ProtocolError
	if !errors.As(err, &pe) || !bytes.Contains([]byte(err.Error()), []byte(`"cbor", which the client did not offer`)) {
		t.Fatalf("Connect: %v, want a protocol error about the encoding", err)
	}
}

func TestWrongEncodingFrameIsReportedAndSessionStays(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			// A JSON notification after CBOR was negotiated, then the answer.
			note, _ := jsonrpc.NewNotification("notifications/message", map[string]any{"level": "info", "data": "json!"})
			p.SendIn(proto.EncJSON, note)
		}
		echoTool(p, m)
	}))
	s, _, store := connect(t, ts, nil, client.Options{})
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"}); err != nil {
		t.Fatal(err)
	}
	var mismatch *EncodingMismatchError
	found := false
	for _, f := range controlFrames(store, capture.In) {
		if errors.As(f.Err, &mismatch) {
			found = true
			if mismatch.Got != proto.EncJSON || mismatch.Negotiated != proto.EncCBOR || f.Msg == nil {
				t.Fatalf("mismatch frame %+v", mismatch)
			}
			if !bytes.Contains([]byte(f.Err.Error()), []byte("-32003 Encoding Mismatch")) {
				t.Fatalf("error does not name -32003: %v", f.Err)
			}
		}
	}
	if !found {
		t.Fatal("no Encoding Mismatch frame was captured")
	}
	if _, err := s.Call(testCtx(t), mcp.MethodPing, nil); err != nil {
		t.Fatalf("the session did not stay up: %v", err)
	}
}

func TestFirstMessageMustBeInitialize(t *testing.T) {
	ts := wttest.NewServer(t, func(p *wttest.Peer) { p.ReadFrame() })
	tr, _ := newTransport(t, ts, nil)
	if err := tr.Start(testCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ping, _ := jsonrpc.NewRequest(jsonrpc.IntID(1), mcp.MethodPing, nil)
	if err := tr.Send(testCtx(t), ping); err == nil || !bytes.Contains([]byte(err.Error()), []byte("initialize")) {
		t.Fatalf("sending ping first: %v", err)
	}
}
