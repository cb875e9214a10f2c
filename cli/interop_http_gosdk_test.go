package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability with the official Go SDK's everything example over
// Streamable HTTP (-http: stateful sessions), through the tap of
// interop_http_wiretap_test.go; interop_gosdk_test.go is the stdio side.
//
// Over stdio the server speaks 2026-07-28 and refuses to ask the client
// anything there; over HTTP its stateful handler answers server/discover
// with versions up to 2025-11-25 only, so mcpscope's auto mode opens a
// 2025-11-25 session with initialize, and sample, elicit and roots work
// without --protocol (TestInteropHTTPGoSDKEverything checks that era).
//
// Not covered, because the server has no such feature: progress (no tool
// reports any) and a tool slow enough to time out (the tap withholds an
// answer instead), MRTR rounds (2026-07-28 only). elicit (form) declined
// makes the server panic and exit, which would take the server the
// subtests share down; interop_gosdk_test.go shows it over stdio.

// greetAda is the params of a tools/call of greet.
func greetAda(t *testing.T) string {
	return callTool(t, "greet", map[string]any{"name": "Ada"})
}

// isTool reports whether m is a tools/call of the tool name.
func isTool(name string) func(wireMsg) bool {
	return func(m wireMsg) bool {
		var p struct{ Name string }
		return m.Method == "tools/call" && json.Unmarshal(m.Params, &p) == nil && p.Name == name
	}
}

// TestInteropHTTPGoSDKEverything drives the Go SDK's stateful server, one
// feature a subtest: the lists, calls, the server's questions answered
// from files, a ping each way and a timeout. Every run opens its session
// the same way: the server/discover probe answered without 2026-07-28,
// then initialize; the GET stream opens (and is answered), DELETE ends the
// session.
func TestInteropHTTPGoSDKEverything(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKEverythingHTTP(t)
	run := tapRunner(peer, nil, func(t *testing.T, p peerRun) {
		t.Helper()
		p.assertLegacyHandshake(t, "2025-11-25", true)
		mustTrace(t, p.result, "→ http", "GET /mcp")
		mustTrace(t, p.result, "← http", "204 No Content")
	})
	checkLists(t, run,
		listCheck{"tools", "tools", "elicit (url)"},
		// Its two resources share one URI: the second replaces the first.
		listCheck{"resources", "resources", "info (with Icons)"},
		listCheck{"prompts", "prompts", "greet"})
	t.Run("greet", func(t *testing.T) {
		t.Parallel()
		if got := toolText(t, run(t, "call", "tools/call", greetAda(t)).result); got != "Hi Ada" {
			t.Errorf("greet: %q", got)
		}
	})
	questions := []struct {
		tool, answers string
		roots         []string
		asks, want    string
		answer        string // mcpscope's answer to the server's question
	}{
		{tool: "sample", answers: "sampling:\n  - {text: forty-two, model: scripted-model}\n", asks: "sampling/createMessage",
			want: "forty-two", answer: `{"content":{"text":"forty-two","type":"text"},"model":"scripted-model","role":"assistant","stopReason":"endTurn"}`},
		{tool: "elicit (form)", answers: "elicitation:\n  - content: {random: xyzzy}\n", asks: "elicitation/create",
			want: "xyzzy", answer: `{"action":"accept","content":{"random":"xyzzy"}}`},
		{tool: "elicit (url)", answers: "elicitation:\n  - action: accept\n", asks: "elicitation/create",
			want: "(elicitation pending)", answer: `{"action":"accept"}`},
		{tool: "roots", answers: "roots:\n  - {uri: \"file:///srv/project\", name: project}\n", roots: []string{"--root", "file:///srv/data"},
			asks: "roots/list", want: "project:file:///srv/project,data:file:///srv/data"},
		// The ping tool pings the client and answers nothing.
		{tool: "ping", asks: "ping", answer: `{}`},
	}
	for _, q := range questions {
		t.Run(q.tool, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"call"}, q.roots...)
			if q.answers != "" {
				args = append(args, "--answers", writeAnswers(t, q.answers))
			}
			p := run(t, append(args, "tools/call", callTool(t, q.tool, nil))...)
			if got := toolText(t, p.result); got != q.want {
				t.Errorf("%s: %q, want %q", q.tool, got, q.want)
			}
			a := answerTo(t, p, serverRequest(t, p, q.asks))
			if q.answer != "" && !jsonEqual(t, a.Result, []byte(q.answer)) {
				t.Errorf("%s answered %s, want result %s", q.asks, a.Raw, q.answer)
			}
		})
	}
	t.Run("call ping", func(t *testing.T) {
		t.Parallel()
		p := run(t, "call", "ping")
		p.mustExit(t, ExitOK)
		if strings.TrimSpace(p.stdout) != "{}" || len(p.requests("ping")) != 1 {
			t.Errorf("ping: %q %s", p.stdout, p.wireDump())
		}
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		p, _ := runTapped(t, peer, tapRule{hold: isTool("greet")}, "call", "--timeout", "1s", "tools/call", greetAda(t))
		p.mustExit(t, ExitTimeout)
		call := p.requests("tools/call")[0]
		if d := p.diag(); len(d) != 1 || d[0] != "error: tools/call (id "+string(call.ID)+") timed out after 1s; sent a cancellation" {
			t.Errorf("stderr %q", d)
		}
		assertCancelled(t, p, call, "timed out after 1s")
	})
}

// TestInteropHTTPGoSDKSessionExpiry: the tap sends one tools/call under a
// session id the Go SDK server never opened, which it answers with its
// own 404. mcpscope says the session expired, initializes one new session
// (exactly one more initialize on the wire), says initialized in it and
// sends the call again there, which succeeds.
func TestInteropHTTPGoSDKSessionExpiry(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKEverythingHTTP(t)
	p, exchanges := runTapped(t, peer, tapRule{expire: isTool("greet")}, "call", "tools/call", greetAda(t))
	if got := toolText(t, p.result); got != "Hi Ada" {
		t.Errorf("greet: %q", got)
	}
	if n := len(p.requests("initialize")); n != 2 {
		t.Fatalf("initialize went out %d times, want the first and one new: %s", n, p.wireDump())
	}
	calls := p.requests("tools/call")
	if len(calls) != 2 || string(calls[0].Raw) != string(calls[1].Raw) {
		t.Fatalf("tools/call went out %d times, want the call and the same call again: %s", len(calls), p.wireDump())
	}
	var sessions []string // the sessions initialize opened, in order
	var refused, resent *tappedHTTP
	for _, x := range exchanges {
		switch {
		case x.rpc == "initialize":
			sessions = append(sessions, x.answered)
		case x.rpc == "tools/call" && refused == nil:
			refused = x
		case x.rpc == "tools/call":
			resent = x
		}
	}
	if len(sessions) != 2 || sessions[0] == "" || sessions[1] == "" || sessions[0] == sessions[1] {
		t.Fatalf("initialize opened sessions %q, want two different ones", sessions)
	}
	if refused == nil {
		t.Fatalf("no tools/call went through the tap")
	}
	if refused.session != unknownSession || refused.status != 404 || !strings.Contains(refused.body, "session not found") {
		t.Errorf("the expired call: session %q, %d %q; want the peer's own 404", refused.session, refused.status, refused.body)
	}
	if resent == nil || resent.session != sessions[1] || resent.status != 200 {
		t.Errorf("the call sent again: %+v, want it in session %s, answered 200", resent, sessions[1])
	}
	var said []string
	for _, x := range exchanges {
		if x.rpc == "notifications/initialized" {
			said = append(said, x.session)
		}
	}
	if !slices.Equal(said, sessions) {
		t.Errorf("notifications/initialized went out in sessions %q, want %q", said, sessions)
	}
	want := "warning: the server no longer knows session " + sessions[0] + " (404): starting a new session and sending tools/call (id " + string(calls[0].ID) + ") again"
	if d := p.diag(); len(d) != 1 || d[0] != want {
		t.Errorf("stderr %q, want %q", d, want)
	}
}
