package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// TestBenchTSReferenceServer benches the TypeScript reference server's
// echo from the explorer in the real program over stdio: b opens echo's
// form (message is required), its submit opens the bench, enter runs it
// through the session, and every call the run made is captured and
// answered.
func TestBenchTSReferenceServer(t *testing.T) {
	t.Parallel()
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything"})}
	probe.benchRun = screentest.LoadInTurn(20)
	tm := probe.run(t, 150, 45)
	probe.waitText(t, "MCP connected")

	sendKeys(tm, "e")
	probe.waitText(t, " · / filters")
	sendKeys(tm, "/")
	sendText(tm, "echo")
	sendKeys(tm, "enter", "b")
	probe.waitText(t, "tools/call echo", "message *", "submitting opens the bench")
	sendText(tm, "load")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, `Bench · tools/call echo {"message":"load"}`, "ready · enter runs")
	sendKeys(tm, "enter")
	s := probe.waitText(t, "done in ")
	if !strings.Contains(s, "started 20 · completed 20") || !strings.Contains(s, "errors     none") {
		t.Errorf("after the run:\n%s", s)
	}
	calls := screentest.SentRequests(store, mcp.MethodToolsCall)
	if len(calls) != 20 || !strings.Contains(string(calls[19]), `"arguments":{"message":"load"}`) {
		t.Errorf("%d tools/call captured, the last %s", len(calls), calls[len(calls)-1])
	}
	sendKeys(tm, "esc")
	probe.waitText(t, "Explorer · tools, resources, templates, prompts")
}

// TestBenchModernRequest benches a request recorded on a 2026-07-28
// session with the Go SDK's conformance server (stateless Streamable
// HTTP): the recorded _meta (version, client info, capabilities, the
// progress token of the recorded request) is dropped and the session puts
// its own into each call of the run, which the server answers.
func TestBenchModernRequest(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKConformanceHTTP(t, true)
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 120, 40)
	tr, err := httpTransport(peer.URL, mcphttp.ModeAuto)(st)
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	ctx := flowtest.Context(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if s.Era() != client.EraModern {
		t.Fatalf("the conformance server speaks era %v, want the modern one", s.Era())
	}
	m.conn = connection{link: Link{Transport: tr, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	m.benchRun = screentest.LoadInTurn(3)
	if _, err := s.Call(ctx, mcp.MethodToolsList, nil, screen.AskProgress()); err != nil {
		t.Fatal(err)
	}
	m.Update(refreshMsg{at: t0})
	m.traffic.selectSeq(sentFrame(t, st, mcp.MethodToolsList))
	r := newRunner(t, m)
	r.Press("b", "enter")
	r.Until("the run's end", func() bool { return strings.Contains(plainView(m), "done in ") })
	if s := plainView(m); !strings.Contains(s, "started 3 · completed 3") || !strings.Contains(s, "errors     none") {
		t.Errorf("after the run:\n%s", s)
	}
	sent := screentest.SentRequests(st, mcp.MethodToolsList)
	if len(sent) != 4 {
		t.Fatalf("%d tools/list sent, want the recorded one and 3 of the run", len(sent))
	}
	for _, p := range sent[1:] {
		if n := strings.Count(string(p), `"_meta"`); n != 1 || !strings.Contains(string(p), "2026-07-28") || strings.Contains(string(p), "progressToken") {
			t.Errorf("a request of the run carries %d _meta, or the recorded progress token: %s", n, p)
		}
	}
}
