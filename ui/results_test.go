package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/structured"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// In a 2026-07-28 session the rows of roots, sampling and logging
// messages carry a dim deprecated tag; in 2025-11-25 they do not.
func TestTrafficRowTagsDeprecatedFeatures(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	log := controlFrame(t, capture.In, t0, proto.EncJSON, notification(t, mcp.MethodNotifyMessage, map[string]any{"level": "info", "data": "hi"}))
	roots := controlFrame(t, capture.In, t0, proto.EncJSON, request(t, 3, mcp.MethodRootsList, nil))
	call := controlFrame(t, capture.Out, t0, proto.EncJSON, request(t, 4, mcp.MethodToolsCall, map[string]any{"name": "echo"}))
	for _, f := range []*capture.Frame{log, roots, call} {
		st.Append(f)
	}
	m := newTestModel(t, st, 160, 30)
	cols := trafficColumns(120)
	for _, c := range []struct {
		version string
		f       *capture.Frame
		tagged  bool
	}{
		{mcp.ProtocolVersion20260728, log, true}, {mcp.ProtocolVersion20260728, roots, true},
		{mcp.ProtocolVersion20260728, call, false}, {mcp.LatestLegacy, log, false},
	} {
		m.idx.version = c.version
		row := ansi.Strip(m.traffic.row(c.f, cols, false))
		if strings.Contains(row, markDeprecated) != c.tagged {
			t.Errorf("%s %s: %q", c.version, c.f.Msg.Method, row)
		}
	}
}

// sseLink is a fake peer whose link is the legacy HTTP+SSE transport.
type sseLink struct{ *screentest.FakePeer }

// LinkState reports HTTP+SSE.
func (sseLink) LinkState() client.LinkState {
	return client.LinkState{Dialect: mcp.DialectMCP, Encoding: "json", Transport: mcp.TransportHTTPSSE}
}

// Describe declares the HTTP+SSE link.
func (p sseLink) Describe() client.Traits { return client.Traits{Link: p.LinkState} }

// The status bar labels the legacy HTTP+SSE transport deprecated.
func TestStatusBarLabelsHTTPSSEDeprecated(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 200, 20)
	f, s := screentest.ConnectWith(t, m.cfg.Store, client.Options{ProtocolVersion: mcp.LatestLegacy})
	m.conn = connection{link: Link{Transport: sseLink{f}, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	if bar := strings.Join(m.statusParts(), " · "); !strings.Contains(bar, "HTTP+SSE (deprecated)") {
		t.Errorf("status bar %q", bar)
	}
}

// A replayed, proxied or attached session (no Connect in this process)
// is tagged by the version its traffic names: a 2026-07-28 request's
// _meta; so is a result that asks for roots in its inputRequests. A
// server that answers the server/discover probe and then agrees
// 2025-11-25 through initialize is no 2026-07-28 session.
func TestTrafficRowTagsVersionFromTraffic(t *testing.T) {
	modern := map[string]any{mcp.MetaProtocolVersion: mcp.ProtocolVersion20260728}
	log := notification(t, mcp.MethodNotifyMessage, map[string]any{"level": "info", "data": "hi"})
	asks := result(t, 1, map[string]any{"resultType": "input_required", "inputRequests": map[string]any{"r": map[string]any{"method": "roots/list"}}})
	for _, c := range []struct {
		name   string
		msgs   []*jsonrpc.Message
		tagged bool
	}{
		{"2026-07-28", []*jsonrpc.Message{request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "x", "_meta": modern}), asks, log}, true},
		{"probe answered, then initialize", []*jsonrpc.Message{
			request(t, 0, mcp.MethodDiscover, map[string]any{"_meta": modern}),
			result(t, 0, map[string]any{"resultType": "complete", "supportedVersions": []string{mcp.LatestLegacy}, "capabilities": map[string]any{}}),
			request(t, 2, mcp.MethodInitialize, map[string]any{"protocolVersion": mcp.LatestLegacy}),
			result(t, 2, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{}}),
			request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "x"}), asks, log}, false},
	} {
		st := capture.NewStore(capture.Config{})
		var frames []*capture.Frame
		for _, msg := range c.msgs {
			dir := capture.In
			if msg.Kind() == jsonrpc.KindRequest {
				dir = capture.Out
			}
			f := controlFrame(t, dir, t0, proto.EncJSON, msg)
			st.Append(f)
			frames = append(frames, f)
		}
		m := newTestModel(t, st, 160, 30)
		for _, f := range frames[len(frames)-2:] {
			if row := ansi.Strip(m.traffic.row(f, trafficColumns(120), false)); strings.Contains(row, markDeprecated) != c.tagged {
				t.Errorf("%s: version %q, row %q", c.name, m.idx.version, row)
			}
		}
	}
}

// The detail pane of a tools/call result says how its structuredContent
// compares with its text and checks it against the outputSchema the
// tools/list declared; that of a list result says its cache hint.
func TestDetailStructuredContentAndCacheHint(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	schema := json.RawMessage(`{"type":"object","properties":{"t":{"type":"number"}},"required":["t"]}`)
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	add(capture.Out, request(t, 1, mcp.MethodToolsList, map[string]any{}))
	add(capture.In, result(t, 1, map[string]any{"tools": []any{map[string]any{"name": "w",
		"inputSchema": map[string]any{"type": "object"}, "outputSchema": schema}}, "ttlMs": 60000, "cacheScope": "private"}))
	add(capture.Out, request(t, 2, mcp.MethodToolsCall, map[string]any{"name": "w"}))
	add(capture.In, result(t, 2, map[string]any{
		"content": []any{map[string]any{"type": "text", "text": `{"t":"x"}`}}, "structuredContent": map[string]any{"t": "x"}}))
	m := newTestModel(t, st, 200, 60)
	m.traffic.selectSeq(3)
	m.syncSelection()
	m.traffic.selectSeq(4)
	m.syncSelection()
	out := ansi.Strip(m.detail.Render(120, 40, true))
	for _, want := range []string{"structuredContent:", "content[0] text is the same JSON as structuredContent",
		"fails outputSchema with 1 error:", "$.t: must be a number"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the detail of the result:\n%s", want, out)
		}
	}
	m.traffic.selectSeq(2)
	m.syncSelection()
	if out := ansi.Strip(m.detail.Render(120, 40, true)); !strings.Contains(out, "cached 60 s, private · stale after ") {
		t.Errorf("no cache hint in the detail of the list:\n%s", out)
	}
}

// The structured report of a result frame (seconds for a large one) is
// made once, not each time the selection lands on the frame.
func TestDetailStructuredReportMadeOnce(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	add(capture.Out, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "w"}))
	add(capture.In, result(t, 1, map[string]any{
		"content": []any{map[string]any{"type": "text", "text": `{"t":1}`}}, "structuredContent": map[string]any{"t": 1}}))
	made := 0
	old := makeReport
	makeReport = func(res, schema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error)) []structured.Line {
		made++
		return old(res, schema, compile)
	}
	t.Cleanup(func() { makeReport = old })
	m := newTestModel(t, st, 200, 60)
	for range 3 {
		m.traffic.selectSeq(1)
		m.syncSelection()
		m.traffic.selectSeq(2)
		m.syncSelection()
	}
	if out := ansi.Strip(m.detail.Render(120, 40, true)); !strings.Contains(out, "the same JSON as structuredContent") || made != 1 {
		t.Errorf("%d reports made; detail:\n%s", made, out)
	}
}
