package client

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// encodingTransport is a fake transport that negotiates an encoding as
// MCP-Flow does: it declares the encodings it speaks and is told what the
// engine settled, or why the engine ended the session.
type encodingTransport struct {
	*fakeTransport
	encodings []string

	mu         sync.Mutex
	negotiated []flow.Negotiation
	sentBefore [][]string // what the client had sent when each one was settled
	failed     error
}

func (f *encodingTransport) Describe() Traits {
	return Traits{InitializeOnly: true, Encodings: f.encodings, Negotiated: f.settle, Fail: f.fail}
}

func (f *encodingTransport) settle(n flow.Negotiation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.negotiated = append(f.negotiated, n)
	f.sentBefore = append(f.sentBefore, methods(f.srv.sentMessages()))
}

func (f *encodingTransport) fail(err error) {
	f.mu.Lock()
	f.failed = err
	f.mu.Unlock()
	f.end(err)
}

// answerInitialize answers initialize with a result whose transport member
// is transport (none when empty), then reads until the client goes.
func answerInitialize(transport string) func(*fakeServer) {
	return func(srv *fakeServer) {
		for m, ok := srv.next(); ok; m, ok = srv.next() {
			if m.Method != mcp.MethodInitialize {
				continue
			}
			result := `{"protocolVersion":"` + mcp.LatestLegacy + `","capabilities":{},"serverInfo":{"name":"flow-fake","version":"1"}`
			if transport != "" {
				result += `,"transport":` + transport
			}
			srv.rawResult(*m.ID, result+"}")
		}
	}
}

func newEncodingTransport(t *testing.T, encodings []string, transport string) *encodingTransport {
	return &encodingTransport{fakeTransport: newFake(t, answerInitialize(transport)), encodings: encodings}
}

// TestEngineOffersAndSettlesTheEncoding: the engine offers the encodings
// the transport declares in initialize and hands the transport the server's
// choice while the result is delivered, before anything else is sent.
func TestEngineOffersAndSettlesTheEncoding(t *testing.T) {
	for _, c := range []struct {
		name, transport string
		want            flow.Negotiation
	}{
		{"cbor chosen", `{"type":"mcp-flow","version":"0.1","encoding":"cbor","maxFrameSize":4096,"datagramsSupported":true}`,
			flow.Negotiation{FlowTransport: flow.FlowTransport{Type: "mcp-flow", Version: "0.1", Encoding: "cbor", MaxFrameSize: 4096, DatagramsSupported: true}, Declared: true}},
		{"no encoding named", `{"type":"mcp-flow","version":"0.1"}`,
			flow.Negotiation{FlowTransport: flow.FlowTransport{Type: "mcp-flow", Version: "0.1", Encoding: "json"}, Declared: true}},
		{"no transport member", "", flow.Negotiation{FlowTransport: flow.FlowTransport{Encoding: "json"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := newEncodingTransport(t, []string{"cbor", "json"}, c.transport)
			s := New(ft, Options{})
			defer s.Close()
			if err := s.Connect(testCtx(t)); err != nil {
				t.Fatalf("Connect: %v", err)
			}
			var p struct {
				Transport json.RawMessage `json:"transport"`
			}
			sent := ft.srv.sentMessages()
			if err := json.Unmarshal(sent[0].Params, &p); err != nil ||
				string(p.Transport) != `{"type":"mcp-flow","version":"0.1","encodings":["cbor","json"]}` {
				t.Fatalf("initialize offered %s (%v)", p.Transport, err)
			}
			ft.mu.Lock()
			defer ft.mu.Unlock()
			if len(ft.negotiated) != 1 || ft.negotiated[0] != c.want {
				t.Fatalf("the transport was told %+v, want %+v", ft.negotiated, c.want)
			}
			if got := ft.sentBefore[0]; !slices.Equal(got, []string{mcp.MethodInitialize}) {
				t.Fatalf("the client had sent %v when the encoding was settled; want initialize only", got)
			}
		})
	}
}

// TestEngineRefusesAnEncodingItDidNotOffer: a choice the client did not
// offer, or a transport member it cannot read, ends the session through the
// transport's Fail, and Connect says why.
func TestEngineRefusesAnEncodingItDidNotOffer(t *testing.T) {
	for _, c := range []struct{ name, transport, want string }{
		{"not offered", `{"type":"mcp-flow","version":"0.1","encoding":"cbor"}`,
			`connection lost: protocol violation: the server chose the encoding "cbor", which the client did not offer (it offered [json])`},
		{"unknown", `{"encoding":"xml"}`,
			`connection lost: protocol violation: the server chose the encoding "xml", which the client did not offer (it offered [json])`},
		{"malformed", `"cbor"`,
			`connection lost: protocol violation: the initialize result's transport object is malformed: json: cannot unmarshal string`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := newEncodingTransport(t, []string{"json"}, c.transport)
			s := New(ft, Options{})
			defer s.Close()
			err := s.Connect(testCtx(t))
			var ce *ConnectionError
			var pe *ProtocolError
			if !errors.As(err, &ce) || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("Connect: %v\nwant %s…", err, c.want)
			}
			ft.mu.Lock()
			defer ft.mu.Unlock()
			if ft.failed != pe || len(ft.negotiated) != 0 {
				t.Fatalf("the transport was failed with %v and told %+v; want failed with %v and told nothing", ft.failed, ft.negotiated, pe)
			}
			if got := methods(ft.srv.sentMessages()); !slices.Equal(got, []string{mcp.MethodInitialize}) {
				t.Fatalf("the client sent %v; want initialize only", got)
			}
		})
	}
}

// TestNoOfferWithoutEncodings: a transport that declares no encodings gets
// an initialize without a transport member, as standard MCP has it.
func TestNoOfferWithoutEncodings(t *testing.T) {
	ft := newEncodingTransport(t, nil, `{"encoding":"cbor"}`)
	s := New(ft, Options{})
	defer s.Close()
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(ft.srv.sentMessages()[0].Params, &p); err != nil || p["transport"] != nil {
		t.Fatalf("initialize params %s (%v), want no transport member", ft.srv.sentMessages()[0].Params, err)
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if len(ft.negotiated) != 0 {
		t.Fatalf("the transport was told %+v, want nothing", ft.negotiated)
	}
}

// FuzzNegotiation reads arbitrary initialize results: a settled encoding is
// always one that was offered.
func FuzzNegotiation(f *testing.F) {
	f.Add([]byte(`{"protocolVersion":"2025-06-18","transport":{"type":"mcp-flow","encoding":"cbor","maxFrameSize":100}}`), "cbor,json")
	f.Add([]byte(`{"transport":{"encoding":"xml"}}`), "json")
	f.Add([]byte(`{"transport":null}`), "json")
	f.Add([]byte(`[]`), "cbor")
	f.Fuzz(func(t *testing.T, result []byte, offer string) {
		offered := strings.Split(offer, ",")
		n, err := negotiation(result, offered)
		if err == nil && !slices.Contains(offered, n.Encoding) {
			t.Fatalf("settled %q, which %v does not hold", n.Encoding, offered)
		}
	})
}
