package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// The server/discover and capabilities probes, and an older server's
// refusal of them, read as probes with what the session concluded, drawn
// muted, never red, and the "error" filter leaves them out.
func TestProbesReadAsProbes(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	add(capture.Out, request(t, 1, mcp.MethodDiscover, map[string]any{}))
	add(capture.In, jsonrpc.NewErrorResponse(jsonrpc.IntID(1), mcp.CodeMethodNotFound, "Method not found", nil))
	add(capture.Out, request(t, 2, mcp.MethodInitialize, map[string]any{}))
	add(capture.In, result(t, 2, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{}}))
	add(capture.Out, request(t, 3, mcp.MethodCapabilities, nil))
	add(capture.In, jsonrpc.NewErrorResponse(jsonrpc.IntID(3), mcp.CodeMethodNotFound, "Method not found", nil))
	add(capture.Out, request(t, 4, mcp.MethodCapabilities, nil))
	add(capture.In, result(t, 4, map[string]any{"interactive": true}))
	add(capture.Out, request(t, 5, mcp.MethodDiscover, map[string]any{}))
	add(capture.In, result(t, 5, map[string]any{"supportedVersions": []string{mcp.Modern}, "capabilities": map[string]any{}}))
	add(capture.Out, request(t, 6, "no/such", nil))
	add(capture.In, jsonrpc.NewErrorResponse(jsonrpc.IntID(6), mcp.CodeMethodNotFound, "Method not found", nil))
	m := newTestModel(t, st, 140, 30)

	want := map[uint64]string{
		1:  "probe: server/discover (does the server speak 2026-07-28?)",
		2:  "probe: server speaks 2025-11-25 (initialize handshake) · error -32601 Method not found",
		5:  "probe: capabilities (does the server run interactive sessions?)",
		6:  "probe: server runs no interactive sessions (tools/call forms) · error -32601 Method not found",
		8:  "probe: server runs interactive sessions",
		10: "probe: server speaks 2026-07-28 (server/discover)",
	}
	for seq, w := range want {
		f, _ := st.Get(seq)
		if label, tone := frameLabel(f, m.idx, mcp.DialectMCP); tone != toneProbe || label != w {
			t.Errorf("frame %d reads %q (tone %v), want %q drawn as a probe", seq, label, tone, w)
		}
	}
	for _, row := range trafficRows(m) {
		if strings.Contains(row, "legacy") {
			t.Errorf("a row says legacy: %q", row)
		}
	}
	filterBy(m, "error")
	if n := m.idx.filter.count(); n != 1 || m.idx.filter.seqAt(0) != 12 {
		t.Errorf("error matches %d frames, want only the answer to no/such", n)
	}
}

// Over HTTP a server refuses server/discover with a 400 and an error whose
// id is null (the TypeScript SDK): the error on the probe's own exchange
// is the probe's answer, not a failure.
func TestProbeRefusedWithNullID(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(conn string, dir capture.Dir, m *jsonrpc.Message) {
		f := controlFrame(t, dir, c.next(), proto.EncJSON, m)
		f.Conn = conn
		st.Append(f)
	}
	add("http POST 1", capture.Out, request(t, 1, mcp.MethodDiscover, map[string]any{}))
	add("http POST 1", capture.In, jsonrpc.NewErrorResponse(jsonrpc.ID{}, -32000, "Bad Request: Server not initialized", nil))
	add("http POST 2", capture.Out, request(t, 2, mcp.MethodInitialize, map[string]any{}))
	add("http POST 2", capture.In, result(t, 2, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{}}))
	add("http POST 3", capture.Out, request(t, 3, "no/such", nil))
	add("http POST 3", capture.In, jsonrpc.NewErrorResponse(jsonrpc.ID{}, -32000, "Bad Request", nil))
	m := newTestModel(t, st, 140, 30)
	f, _ := st.Get(2)
	want := "probe: server speaks 2025-11-25 (initialize handshake) · error -32000 Bad Request: Server not initialized [Server error]"
	if label, tone := frameLabel(f, m.idx, mcp.DialectMCP); tone != toneProbe || label != want {
		t.Errorf("the refusal reads %q (tone %v), want %q drawn as a probe", label, tone, want)
	}
	filterBy(m, "error")
	if n := m.idx.filter.count(); n != 1 || m.idx.filter.seqAt(0) != 6 {
		t.Errorf("error matches %d frames, want only the null-id error of no/such", n)
	}
}

// An SSE event that carries no message (a priming event, a heartbeat)
// reads as one, not as a batch.
func TestEventWithoutMessageRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	st.Append(&capture.Frame{Dir: capture.In, Conn: "http POST 2", Raw: []byte("id: 7\ndata: \n\n"), Enc: proto.EncText})
	m := newTestModel(t, st, 140, 30)
	f, _ := st.Get(1)
	if label, _ := frameLabel(f, m.idx, mcp.DialectMCP); label != "event without a message (priming or heartbeat)" {
		t.Errorf("label %q", label)
	}
}

// A gateway StreamMessage reads as one: its type, its stream, what a
// start invokes, an error's code and message.
func TestGatewayStreamMessageRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	for _, raw := range []string{
		`{"type":"start","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"system_binary_streams_out","binary":true}}`,
		`{"type":"error","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:03Z","error":{"code":-32000,"message":"Stream timeout\u001b]0;x\u0007"}}`,
	} {
		st.Append(&capture.Frame{Dir: capture.In, Conn: "ws", Raw: []byte(raw), Enc: proto.EncJSON})
	}
	m := newTestModel(t, st, 140, 30)
	want := []string{"gateway start 550e8400 · system_binary_streams_out", "gateway error 550e8400 · -32000 Stream timeout"}
	for i, w := range want {
		f, _ := st.Get(uint64(i + 1))
		if label, _ := frameLabel(f, m.idx, mcp.DialectMCP); !strings.HasPrefix(label, w) || strings.ContainsRune(label, 0x1b) {
			t.Errorf("label %q, want %q", label, w)
		}
	}
}

// The legacy transport's endpoint event reads as that event.
func TestEndpointEventRow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	raw := []byte("event: endpoint\ndata: /message?sessionId=1\n\n")
	st.Append(&capture.Frame{Dir: capture.In, Conn: "http GET 1", Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 7, Len: 8, Name: "event", Value: "endpoint", Kind: proto.FieldHeader}}})
	m := newTestModel(t, st, 140, 30)
	f, _ := st.Get(1)
	if label, _ := frameLabel(f, m.idx, mcp.DialectMCP); label != "event endpoint (no JSON-RPC message)" {
		t.Errorf("label %q", label)
	}
}

// Opening the explorer asks `capabilities` once per connection: opened
// again, it goes by the answer the session already has.
func TestExplorerProbesOncePerConnection(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 120, 30)
	f, s := screentest.Connect(t, m.cfg.Store)
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, ready: true}
	m.interactive.NewConnection(1)
	discovered := func(msg tea.Msg) bool { _, ok := msg.(explore.DiscoveredMsg); return ok }
	m.Update(screentest.RunUntil(t, "the capabilities answer", press(m, "e"), discovered))
	press(m, "esc")
	runToEnd(t, press(m, "e")) // a second probe would go out before this returns
	press(m, "esc")
	asked := 0
	for _, sent := range f.After() {
		if sent.Method == mcp.MethodCapabilities {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("capabilities asked %d times, want once", asked)
	}
}

// runToEnd runs cmd, and every command of its batches, to their end; the
// hang guard bounds the wait.
func runToEnd(t *testing.T, cmd tea.Cmd) {
	t.Helper()
	var wg sync.WaitGroup
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		defer wg.Done()
		if c == nil {
			return
		}
		if b, ok := c().(tea.BatchMsg); ok {
			for _, sub := range b {
				wg.Add(1)
				go run(sub)
			}
		}
	}
	wg.Add(1)
	go run(cmd)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(guard.Hang):
		t.Fatalf("the commands never ended within %s", guard.Hang)
	}
}

// Against the TypeScript reference server over Streamable HTTP, whose
// refusal of server/discover is an HTTP 400 with a null id, the refusal
// reads as the probe's outcome and the "error" filter finds nothing.
func TestTSProbeRefusalOverHTTP(t *testing.T) {
	peer := peertest.StartTSStreamableHTTP(t)
	st := capture.NewStore(capture.Config{})
	tr, err := mcphttp.New(mcphttp.Config{URL: peer.URL, Mode: mcphttp.ModeAuto, Sink: st})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, st, 160, 40)
	refusals := 0
	for _, f := range st.Window(1, 1000) {
		if f.Msg == nil || f.Msg.Kind() != jsonrpc.KindError {
			continue
		}
		refusals++
		if label, tone := frameLabel(f, m.idx, mcp.DialectMCP); tone != toneProbe || !strings.HasPrefix(label, "probe: server speaks 2025-11-25 (initialize handshake) · error") {
			t.Errorf("the refusal reads %q (tone %v)", label, tone)
		}
	}
	if refusals != 1 {
		t.Errorf("%d error answers, want the probe's refusal", refusals)
	}
	filterBy(m, "error")
	if n := m.idx.filter.count(); n != 0 {
		t.Errorf("error matches %d frames", n)
	}
}
