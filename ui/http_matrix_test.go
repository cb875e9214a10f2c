package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// TestHTTPPeersFeatureMatrix drives the TUI against each real HTTP peer
// through every feature it offers, in one session per peer: the status bar
// names the transport, the era and version, the server and the session the
// server gave; then progress shown on the progress strip, a cancel from
// the traffic pane putting notifications/cancelled for the call on the
// wire, an elicitation answered through its form, a sampling request
// answered through the sampling screen, and the roots the server asks for.
func TestHTTPPeersFeatureMatrix(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		start    func(testing.TB) *peertest.HTTPPeer
		mode     mcphttp.Mode
		version  string // the protocol version asked; "" lets the session pick
		roots    []mcp.Root
		status   []string // what the status bar shows, beside the session
		features []func(*questionFlow)
	}{
		{"TS reference sse", peertest.StartTSSSE, mcphttp.ModeLegacySSE, "", tsSeedRoots,
			[]string{"HTTP+SSE", "2025-11-25 · initialize handshake", "mcp-servers/everything 2.0.0"},
			[]func(*questionFlow){(*questionFlow).rootsAskedAtStart, (*questionFlow).answerTSQuestions, (*questionFlow).progressThenCancelTS}},
		{"Go SDK conformance -stateless=false", func(t testing.TB) *peertest.HTTPPeer { return peertest.StartGoSDKConformanceHTTP(t, false) },
			mcphttp.ModeAuto, "", nil,
			[]string{"Streamable HTTP", "2025-11-25 · initialize handshake", "mcp-conformance-test-server 1.0.0"},
			[]func(*questionFlow){(*questionFlow).explore, (*questionFlow).progressConformance, (*questionFlow).answerSEP1034Defaults,
				(*questionFlow).samplingConformance, (*questionFlow).cancelAskedConformance}},
		{"Go SDK everything -http --protocol 2025-11-25", peertest.StartGoSDKEverythingHTTP, mcphttp.ModeAuto, mcp.ProtocolVersion20251125, tsSeedRoots,
			[]string{"Streamable HTTP", "2025-11-25 · initialize handshake", "everything"},
			[]func(*questionFlow){(*questionFlow).explore, (*questionFlow).elicitGoEverything, (*questionFlow).rootsGoEverything}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := startHTTPFlow(t, c.start(t), c.mode, client.Options{ProtocolVersion: c.version}, c.roots)
			f.statusShows(c.status...)
			for _, feature := range c.features {
				feature(f)
			}
			f.quit()
		})
	}
}

// shownSession matches the session id on the status bar, cut to fit.
var shownSession = regexp.MustCompile(` · session ([^ …]{8,})…? · `)

// statusShows waits for the status bar to show texts and a session whose
// id the server sent (it is in the capture).
func (f *questionFlow) statusShows(texts ...string) {
	f.t.Helper()
	var session string
	f.probe.waitScreen(f.t, fmt.Sprintf("%q and a session", texts), func(s string) bool {
		m := shownSession.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		session = m[1]
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
	for _, fr := range f.store.Window(1, f.store.Len()) {
		if fr.Dir == capture.In && strings.Contains(string(fr.Raw), session) {
			return
		}
	}
	f.t.Errorf("the status bar's session %q is nowhere in what the server sent", session)
}

// rootsAskedAtStart waits for the roots/list the server asks once
// initialized, answered with the declared roots.
func (f *questionFlow) rootsAskedAtStart() {
	f.t.Helper()
	f.probe.waitScreen(f.t, "roots/list answered", func(string) bool {
		got := answersTo(f.store, mcp.MethodRootsList)
		return len(got) > 0 && strings.Contains(string(got[0]), "file:///srv/seed")
	})
}

// cancelFromTraffic gives the traffic pane the keys, selects the latest
// request calling tool (in flight), cancels it with c, waits for its
// notifications/cancelled on the wire, gives the keys back to the screen
// and returns the request's id.
func (f *questionFlow) cancelFromTraffic(tool string) string {
	t := f.t
	t.Helper()
	var id string
	for _, fr := range f.store.Window(1, f.store.Len()) {
		if fr.Dir == capture.Out && fr.Msg != nil && fr.Msg.Method == mcp.MethodToolsCall && callLabel(fr.Msg) == "tools/call "+tool {
			id = fr.Msg.ID.String()
		}
	}
	sendKeys(f.tm, "ctrl+o", "/")
	sendText(f.tm, "> #"+id) // what mcpscope sent with the id: the request alone
	sendKeys(f.tm, "enter")
	f.probe.waitScreen(t, "the request selected", func(s string) bool {
		if strings.Contains(s, "request · id "+id+" · tools/call "+tool) { // its detail
			return true
		}
		sendKeys(f.tm, "home") // the filter reads older frames in steps
		return false
	})
	sendKeys(f.tm, "c")
	f.probe.waitText(t, mcp.MethodNotifyCancelled+" "+markCancelled)
	cancelled := false
	for _, fr := range f.store.Window(1, f.store.Len()) {
		if got, ok := cancelledID(fr); ok && fr.Dir == capture.Out && got.String() == id {
			cancelled = true
		}
	}
	if !cancelled {
		t.Errorf("no notifications/cancelled for tools/call %s (id %s) went out", tool, id)
	}
	sendKeys(f.tm, "esc", "ctrl+o") // the filter cleared, the keys back to the screen
	return id
}

// cancelled waits for the explorer to say the call of tool with id was
// cancelled, and goes back to the whole list.
func (f *questionFlow) cancelled(tool, id string) {
	f.t.Helper()
	f.probe.waitText(f.t, "tools/call "+tool+" · cancelled · id "+id+" · ", "tools/call (id "+id+") was cancelled")
	sendKeys(f.tm, "esc", "esc")
	f.probe.waitScreen(f.t, "the whole list", func(s string) bool { return !strings.Contains(s, "tools match") })
}

// progressThenCancelTS calls the TypeScript reference's long operation,
// 120 steps in 120 s (still in flight at the cancel, however slow the
// machine), waits for its second progress report on the progress strip,
// cancels it from the traffic pane and goes back to the list.
func (f *questionFlow) progressThenCancelTS() {
	t := f.t
	t.Helper()
	const tool = "trigger-long-running-operation"
	f.callTool(tool, func() {
		sendKeys(f.tm, "backspace", "backspace") // duration: 10 → 120
		sendText(f.tm, "120")
		sendKeys(f.tm, "tab", "backspace") // steps: 5 → 120
		sendText(f.tm, "120")
	})
	f.probe.waitScreen(t, "the second progress report on the strip", func(s string) bool {
		return strings.Contains(s, "Progress · 1 request") && lineWith(s, " 2/120 · ", "tools/call trigger")
	})
	f.cancelled(tool, f.cancelFromTraffic(tool))
}

// progressConformance calls the conformance server's progress tool: its
// three reports reach the progress strip, the bar done.
func (f *questionFlow) progressConformance() {
	t := f.t
	t.Helper()
	const tool = "test_tool_with_progress"
	f.callTool(tool, nil)
	f.probe.waitScreen(t, "the finished bar on the progress strip", func(s string) bool {
		return lineWith(s, "100% 100/100 ✓ done", "tools/call test_tool") &&
			strings.Count(s, mcp.MethodNotifyProgress+" · tools/call test_to") == 3 // the traffic cuts the name
	})
	f.answer(tool)
}

// samplingConformance calls the conformance server's sampling tool and
// answers its sampling request by typing a reply.
func (f *questionFlow) samplingConformance() {
	t := f.t
	t.Helper()
	f.callTool("test_sampling", func() { sendText(f.tm, "What is 2+2?") })
	f.probe.waitText(t, "Question · sampling · request ", "[user] What is 2+2?", "maxTokens 100")
	sendText(f.tm, "Four.")
	sendKeys(f.tm, "ctrl+s")
	f.answer("test_sampling", "LLM response: Four.")
}

// cancelAskedConformance calls the conformance server's sampling tool and,
// while its question is open, cancels the call from the traffic pane; a
// question the server does not withdraw is cancelled with esc.
func (f *questionFlow) cancelAskedConformance() {
	t := f.t
	t.Helper()
	f.callTool("test_sampling", func() {
		f.tm.Send(screentest.Ctrl('u')) // the form keeps the last call's prompt
		sendText(f.tm, "never answered")
	})
	f.probe.waitText(t, "Question · sampling · request ", "[user] never answered")
	asked := lastAsked(f.store, mcp.MethodSamplingCreateMessage)
	id := f.cancelFromTraffic("test_sampling")
	// The server may withdraw its question once the call is cancelled
	// (notifications/cancelled for the sampling request closes it) or
	// leave it open, to be cancelled with esc.
	s := f.probe.waitScreen(t, "the question, or the call's end", func(s string) bool {
		return strings.Contains(s, "Question · sampling · request ") || strings.Contains(s, "tools/call (id "+id+") was cancelled")
	})
	if !strings.Contains(s, "Question · sampling · request ") {
		f.cancelled("test_sampling", id)
		return
	}
	// The withdrawal can overtake esc: the question is then gone before
	// esc arrives, and esc leaves the call's view for the list.
	if f.probe.escOnQuestion(t, f.tm) {
		f.cancelled("test_sampling", id)
		return
	}
	f.probe.waitScreen(t, fmt.Sprintf("the sampling request %s withdrawn on the wire", asked), func(string) bool { return withdrawn(f.store, asked) })
	t.Logf("the server withdrew sampling request %s before esc reached it", asked)
	sendKeys(f.tm, "esc")
	f.probe.waitScreen(t, "the whole list", func(s string) bool { return !strings.Contains(s, "tools match") })
}

// lastAsked returns the id of the latest request of method the server sent.
func lastAsked(st *capture.Store, method string) jsonrpc.ID {
	var id jsonrpc.ID
	for _, fr := range st.Window(1, st.Len()) {
		if fr.Dir == capture.In && fr.Msg != nil && fr.Msg.ID != nil && fr.Msg.Method == method {
			id = *fr.Msg.ID
		}
	}
	return id
}

// withdrawn reports whether the server cancelled its request id.
func withdrawn(st *capture.Store, id jsonrpc.ID) bool {
	for _, fr := range st.Window(1, st.Len()) {
		if got, ok := cancelledID(fr); ok && fr.Dir == capture.In && got.Key() == id.Key() {
			return true
		}
	}
	return false
}

// elicitGoEverything answers the Go SDK everything server's form
// elicitation with the one string it asks.
func (f *questionFlow) elicitGoEverything() {
	t := f.t
	t.Helper()
	f.callTool("elicit (form)", nil)
	f.probe.waitText(t, "Question · elicitation · form · request ", "provide a random string")
	sendText(f.tm, "xyzzy-42")
	sendKeys(f.tm, "ctrl+s")
	f.answer("elicit (form)", `"text": "xyzzy-42"`)
	if got := answersTo(f.store, mcp.MethodElicitationCreate); len(got) != 1 || !sameValue(t, string(got[0]), `{"action":"accept","content":{"random":"xyzzy-42"}}`) {
		t.Errorf("the server got %s", got)
	}
}

// rootsGoEverything calls the Go SDK everything server's roots tool: it
// asks roots/list and lists the declared root.
func (f *questionFlow) rootsGoEverything() {
	f.t.Helper()
	f.callTool("roots", nil)
	f.answer("roots", "seed:file:///srv/seed")
}
