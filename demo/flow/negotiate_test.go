package flow

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/binary"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The initialize result is one frame: a 4-byte big-endian prefix holding
// the true body length, then JSON with the transport object.
func TestInitializeResultFrameIsJSONWithTransport(t *testing.T) {
	srv := startServer(t, Config{MaxConcurrentStreams: 3, MaxFrameSize: 4096})
	c := connect(t, srv)
	f := c.initialize([]string{"cbor", "json"})
	if len(f.frame) < 4 || binary.BigEndian.Uint32(f.frame) != uint32(len(f.frame)-4) {
		t.Fatalf("prefix % x does not hold the body length %d", f.frame[:4], len(f.frame)-4)
	}
	if !json.Valid(f.body) || f.body[0] != '{' {
		t.Fatalf("initialize result body is not JSON: % x", f.body[:16])
	}
	var res struct {
		ID     int `json:"id"`
		Result struct {
			ProtocolVersion string                     `json:"protocolVersion"`
			Transport       map[string]json.RawMessage `json:"transport"`
		} `json:"result"`
	}
	if err := json.Unmarshal(f.body, &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"type": `"mcp-flow"`, "version": `"0.1"`, "encoding": `"cbor"`,
		"maxConcurrentStreams": "3", "datagramsSupported": "true", "maxFrameSize": "4096"}
	for k, v := range want {
		if got := string(res.Result.Transport[k]); got != v {
			t.Errorf("transport.%s = %s, want %s", k, got, v)
		}
	}
	if res.ID != 1 || res.Result.ProtocolVersion != mcp.LatestLegacy {
		t.Errorf("id %d, protocolVersion %q", res.ID, res.Result.ProtocolVersion)
	}
}

// After negotiating CBOR every frame of the server is one CBOR data item
// (a map), not JSON; ping is answered {} in CBOR.
func TestFramesAfterNegotiationAreCBOR(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor", "json"})
	c.request(2, "tools/list", map[string]any{})
	f := c.next()
	if json.Valid(f.body) || f.body[0]&0xe0 != 0xa0 {
		t.Fatalf("tools/list answer is not a CBOR map: % x", f.body[:8])
	}
	m := c.decode(f)
	list := wizardtest.Result[mcp.ListToolsResult](t, m)
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	for _, n := range []string{"echo", "read_file", "analyze", "tone", "misbehave", "list_templates",
		"generate_template", "validate_template", "scaffold_project", "search_templates"} {
		if !names[n] {
			t.Errorf("tools/list lacks %s", n)
		}
	}
	if ping := c.call(3, "ping", nil); string(ping.Result) != "{}" {
		t.Errorf("ping result %s", ping.Result)
	}
}

// A client that offers only json, json first, or no transport object at
// all stays in JSON.
func TestJSONOfferedStaysJSON(t *testing.T) {
	srv := startServer(t, Config{})
	for _, offer := range [][]string{{"json"}, {"json", "cbor"}, {"msgpack", "json"}, nil} {
		c := connect(t, srv)
		f := c.initialize(offer)
		if !strings.Contains(string(f.body), `"encoding":"json"`) {
			t.Fatalf("offer %v: initialize result %s", offer, f.body)
		}
		c.request(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}})
		f = c.next()
		if !json.Valid(f.body) {
			t.Fatalf("offer %v: frame after initialize is not JSON: % x", offer, f.body[:8])
		}
		if !strings.Contains(string(f.body), `"text":"hi"`) {
			t.Errorf("offer %v: echo answered %s", offer, f.body)
		}
	}
}

// No supported encoding, or another transport type, is refused.
func TestInitializeRefusesUnknownTransport(t *testing.T) {
	srv := startServer(t, Config{})
	c := connect(t, srv)
	c.request(1, "initialize", map[string]any{"protocolVersion": mcp.LatestLegacy,
		"transport": map[string]any{"type": "mcp-flow", "encodings": []string{"msgpack"}}})
	if e := errorOf(t, c.decode(c.next())); e.Code != mcp.CodeInvalidParams {
		t.Errorf("unsupported encodings: %d %s", e.Code, e.Message)
	}
	c2 := connect(t, srv)
	c2.request(1, "initialize", map[string]any{"transport": map[string]any{"type": "grpc"}})
	if e := errorOf(t, c2.decode(c2.next())); e.Code != mcp.CodeInvalidRequest {
		t.Errorf("unknown transport type: %d %s", e.Code, e.Message)
	}
}

// A frame in the encoding not in force is answered -32003 with its id; a
// request id that is not a u32 is -32600; requests before initialize too.
func TestEncodingMismatchAndBadIDs(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.request(5, "tools/list", nil)
	if e := errorOf(t, c.decode(c.next())); e.Code != mcp.CodeInvalidRequest {
		t.Errorf("before initialize: %d %s", e.Code, e.Message)
	}
	c.initialize([]string{"cbor"})
	c.writeFrame([]byte(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))
	m := c.decode(c.next())
	if e := errorOf(t, m); e.Code != mcp.CodeFlowEncodingMismatch || m.ID.String() != "9" {
		t.Errorf("JSON frame after CBOR: id %s, %d %s", m.ID, e.Code, e.Message)
	}
	c.writeFrame([]byte{0xff, 0x00, 0x13})
	m = c.decode(c.next())
	if e := errorOf(t, m); e.Code != mcp.CodeParseError || (m.ID != nil && !m.ID.IsNull()) {
		t.Errorf("garbage: id %s, %d %s", m.ID, e.Code, e.Message)
	}
	for _, id := range []jsonrpc.ID{jsonrpc.StringID("abc"), jsonrpc.IntID(1 << 32), jsonrpc.IntID(-1)} {
		msg, _ := jsonrpc.NewRequest(id, "ping", nil)
		c.send(msg)
		if e := errorOf(t, c.decode(c.next())); e.Code != mcp.CodeInvalidRequest {
			t.Errorf("id %s: %d %s", id, e.Code, e.Message)
		}
	}
	if m := c.call(10, "server/discover", map[string]any{}); m.Error == nil || m.Error.Code != mcp.CodeMethodNotFound {
		t.Errorf("server/discover: %s", describe(m.Error))
	}
}

// The generated certificate suits WebTransport's serverCertificateHashes:
// ECDSA P-256, valid now for less than 14 days, for 127.0.0.1 and
// localhost; the connect command names its hash and the bound port.
func TestGeneratedCertificate(t *testing.T) {
	srv := startServer(t, Config{})
	leaf := srv.cert.Leaf
	key, ok := leaf.PublicKey.(*ecdsa.PublicKey)
	if !ok || key.Curve != elliptic.P256() {
		t.Fatalf("key %T is not ECDSA P-256", leaf.PublicKey)
	}
	if life := leaf.NotAfter.Sub(leaf.NotBefore); life >= 14*24*time.Hour {
		t.Errorf("validity %s is not under 14 days", life)
	}
	if now := time.Now(); now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		t.Errorf("not valid now: %s – %s", leaf.NotBefore, leaf.NotAfter)
	}
	if err := leaf.VerifyHostname("127.0.0.1"); err != nil {
		t.Error(err)
	}
	if err := leaf.VerifyHostname("localhost"); err != nil {
		t.Error(err)
	}
	port := srv.Addr().(*net.UDPAddr).Port
	want := "mcpscope call --cert-hash " + srv.CertHash() + " tools/list '{}' wt://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
	if srv.ConnectCommand() != want || len(srv.CertHash()) != len("sha256:")+64 {
		t.Errorf("connect command %q, want %q", srv.ConnectCommand(), want)
	}
	if !srv.cert.Leaf.NotAfter.Equal(srv.CertNotAfter()) || !srv.CertGenerated() {
		t.Error("CertNotAfter or CertGenerated disagree with the certificate")
	}
}
