package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Record → export → the bytes of every frame are the bytes that crossed
// the wire, as the peer's own log saw them, and the text export is what
// --trace printed.

// Over stdio, through the wiretap: every line mcpscope wrote and every
// line the server wrote, in order, is the exported bytes of a control
// frame, its LF included.
func TestExportStdioBytesAreTheWire(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	p := runPeer(t, peertest.GoSDKEverything(t), "call", "--record", rec, "tools/call", callTool(t, "greet", map[string]any{"name": "Ada ✓"}))
	p.mustExit(t, ExitOK)
	frames := exportFrames(t, rec)
	for _, dir := range []string{"out", "in"} {
		var wire [][]byte
		for _, m := range p.wire {
			if m.Out == (dir == "out") {
				wire = append(wire, append(bytes.Clone(m.Raw), '\n'))
			}
		}
		got := framesOn(frames, dir, "control")
		if len(got) != len(wire) {
			t.Fatalf("%s: %d control frames exported, the wire carried %d lines", dir, len(got), len(wire))
		}
		for i, f := range got {
			if !bytes.Equal(f.bytes(), wire[i]) || f.Size != len(wire[i]) || f.Encoding != "json" {
				t.Errorf("%s frame %d: exported %dB %q, the wire carried %q", dir, i, f.Size, f.bytes(), wire[i])
			}
		}
	}
	if len(framesOn(frames, "in", "stderr")) == 0 {
		t.Errorf("no stderr frame exported")
	}
	checkTextIsTrace(t, p.stderr, rec)
}

// Over MCP-Flow, against the demo: every control frame is its length
// prefix and body, the answer's body is the result printed, and the
// stream's payload is the demo's generated data, computed here from its
// formula.
func TestExportFlowBytesAreTheWire(t *testing.T) {
	const size, seed = 100_003, 5
	d := flowDemo(t)
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	r := flowCall(t, d, toolCall(t, "read_file", map[string]any{"size": size, "seed": seed}), "--trace", "--record", rec, "--stream-out", t.TempDir())
	r.mustExit(t, ExitOK)
	frames := exportFrames(t, rec)
	var payload []byte
	for _, f := range framesOn(frames, "in", "stream") {
		payload = append(payload, f.payload()...)
	}
	if !bytes.Equal(payload, flowtest.Generated(size, seed)) {
		t.Errorf("the exported stream holds %d bytes that are not the generated %d", len(payload), size)
	}
	encodings := map[string]proto.Encoding{"json": proto.EncJSON, "cbor": proto.EncCBOR}
	answered := false
	for _, f := range frames {
		b := f.bytes()
		if f.Channel != "control" {
			continue
		}
		if len(b) < 4 || int(binary.BigEndian.Uint32(b)) != len(b)-4 || f.Size != len(b) {
			t.Fatalf("control frame %d (%dB) is not its length prefix and body: %q", f.Seq, f.Size, b)
		}
		m, err := jsonrpc.Decode(encodings[f.Encoding], b[4:])
		if err != nil || f.Message == nil || f.Message.Kind != m.Kind().String() {
			t.Fatalf("control frame %d: %v, exported message %+v", f.Seq, err, f.Message)
		}
		if f.Dir == "in" && m.Result != nil && string(f.Message.ID) == "2" {
			answered = true
			if !jsonEqual(t, m.Result, []byte(r.stdout)) {
				t.Errorf("the exported answer holds %s, the result printed is %s", m.Result, r.stdout)
			}
		}
	}
	if !answered {
		t.Errorf("no exported frame answers the call")
	}
	checkTextIsTrace(t, r.stderr, rec)
}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%q: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// wsPeer is a WebSocket MCP server that logs every message it reads and
// writes: it refuses server/discover, answers initialize and tools/list,
// and gives anything else -32601.
type wsPeer struct {
	mu         sync.Mutex
	read, sent [][]byte
}

func (p *wsPeer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		p.mu.Lock()
		p.read = append(p.read, data)
		p.mu.Unlock()
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(data, &m) != nil || len(m.ID) == 0 {
			continue
		}
		answer := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`
		switch m.Method {
		case "initialize":
			answer = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"ws-peer","version":"1"}}}`
		case "tools/list":
			answer = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":"héllo","inputSchema":{"type":"object"}}]}}`
		}
		p.mu.Lock()
		p.sent = append(p.sent, []byte(answer))
		p.mu.Unlock()
		if c.Write(ctx, websocket.MessageText, []byte(answer)) != nil {
			return
		}
	}
}

// Over WebSocket, against a server that logs its messages: every message
// it read and every message it wrote, in order, is the exported bytes of
// a control frame.
func TestExportWSBytesAreTheWire(t *testing.T) {
	t.Parallel()
	peer := &wsPeer{}
	srv := httptest.NewServer(peer)
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	r := mcpscope(t, "tools", "--trace", "--record", rec, "ws"+strings.TrimPrefix(srv.URL, "http")+"/mcp")
	r.mustExit(t, ExitOK)
	srv.Close() // its handlers have returned: the logs are whole
	frames := exportFrames(t, rec)
	for _, c := range []struct {
		dir  string
		wire [][]byte
	}{{"out", peer.read}, {"in", peer.sent}} {
		got := framesOn(frames, c.dir, "control")
		if len(got) != len(c.wire) || len(got) < 2 {
			t.Fatalf("%s: %d control frames exported, the peer logged %d messages", c.dir, len(got), len(c.wire))
		}
		for i, f := range got {
			if !bytes.Equal(f.bytes(), c.wire[i]) || f.Size != len(c.wire[i]) {
				t.Errorf("%s frame %d: exported %q, the peer logged %q", c.dir, i, f.bytes(), c.wire[i])
			}
		}
	}
	checkTextIsTrace(t, r.stderr, rec)
}
