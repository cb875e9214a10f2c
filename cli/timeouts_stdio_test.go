package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Servers that test whether mcpscope keeps --timeout and --max-time
// (DESIGN.md §5), played by the stub server (stubserver_test.go) through
// the whole command line. Each run is bounded by the test's own wait.

func init() {
	stubRequestHooks["deaf-after-init"] = deafAfterInitialize
	stubRequestHooks["progress-forever"] = progressForeverOnCall
}

// stubProgressInterval is the pace of the progress-forever stub.
const stubProgressInterval = time.Second

// deafAfterInitialize answers initialize, then never reads stdin again.
func deafAfterInitialize(out *bufio.Writer, method string, id json.RawMessage) bool {
	if method != "initialize" {
		return false
	}
	out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"deaf","version":"1"}}}` + "\n")
	out.Flush()
	time.Sleep(guard.Run) // until mcpscope ends it; past every wait of the tests
	return true
}

// progressForeverOnCall answers tools/call with progress every
// stubProgressInterval, forever, and never with an answer. The stub goes on
// reading stdin, so it ends when mcpscope closes it.
func progressForeverOnCall(_ *bufio.Writer, method string, id json.RawMessage) bool {
	if method != "tools/call" {
		return false
	}
	go func() {
		for i := 1; ; i++ {
			// mcpscope's progress token is the request's id. One short line
			// per write: it never interleaves with the stub's own lines.
			line := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(id) +
				`,"progress":` + strconv.Itoa(i) + `,"message":"still working"}}` + "\n"
			if _, err := os.Stdout.WriteString(line); err != nil {
				return
			}
			time.Sleep(stubProgressInterval)
		}
	}()
	return true
}

// firstError returns the first line of stderr that starts with "error: ".
func firstError(r result) string {
	for _, ln := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(ln, "error: ") {
			return ln
		}
	}
	return ""
}

// mustSayFirst fails unless the first error line matches the pattern.
func (r result) mustSayFirst(t *testing.T, pattern string) {
	t.Helper()
	if line := firstError(r); !regexp.MustCompile(pattern).MatchString(line) {
		t.Fatalf("first error line %q\ndoes not match %s\nstderr:\n%s", line, pattern, r.stderr)
	}
}

// A server that stops reading stdin after initialize: `call --timeout 2s`
// with 1 MB of params ends with exit 4 once the send has taken 2 s,
// saying that the server stopped reading; the request is never cancelled
// (it never went out whole).
func TestTimeoutCoversSendingToADeafServer(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "deaf-after-init")
	params := `{"name":"anything","arguments":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`
	r := mcpscopeWithin(t, 8*time.Second, withTarget(argv, "call", "--env", env, "--timeout", "2s", "tools/call", params)...)
	r.mustExit(t, ExitTimeout)
	r.mustSayFirst(t, `^error: tools/call \(id 3\) timed out after 2s while it was being sent: the server stopped reading: only \d+ of the \d+ bytes of a line went into the server's stdin in time; nothing more can be sent, since the rest would have to go first`)
	if r.stdout != "" {
		t.Fatalf("stdout %q", r.stdout)
	}
}

// A silent server with --timeout 2s: the server/discover probe waits 2 s
// (not its 10 s cap), then initialize waits 2 s, and the message says both.
func TestDiscoverProbeObeysTimeout(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "silent")
	r := mcpscopeWithin(t, 9*time.Second, withTarget(argv, "tools", "--env", env, "--timeout", "2s")...)
	r.mustExit(t, ExitTimeout)
	r.mustSayFirst(t, `^error: could not connect to .*: the server/discover probe got no answer in 2s, then initialize \(id 2\) timed out after 2s; closed the connection instead of cancelling it \(initialize is never cancelled\)$`)
}

// A server that never answers initialize: mcpscope ends the connection
// with exit 4 and never sends notifications/cancelled for it.
func TestInitializeTimeoutIsNeverCancelled(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "silent")
	r := mcpscopeWithin(t, 6*time.Second, withTarget(argv, "tools", "--env", env, "--trace", legacy, "--timeout", "1s")...)
	r.mustExit(t, ExitTimeout)
	r.mustSayFirst(t, `^error: could not connect to .*: initialize \(id 1\) timed out after 1s; closed the connection instead of cancelling it \(initialize is never cancelled\)$`)
	if strings.Contains(r.stderr, "notifications/cancelled") {
		t.Fatalf("a cancellation went out for initialize:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "request initialize") {
		t.Fatalf("the trace does not show initialize going out:\n%s", r.stderr)
	}
}

// A server that sends progress every second and never answers: --max-time
// ends the call whatever progress says, with exit 4 and a message naming
// the max time.
func TestMaxTimeEndsProgressForever(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "progress-forever")
	r := mcpscopeWithin(t, 8*time.Second, withTarget(argv, "call", "--env", env, "--progress", "--timeout", "2s", "--max-time", "3s",
		"tools/call", `{"name":"anything"}`)...)
	r.mustExit(t, ExitTimeout)
	r.mustSayFirst(t, `^error: tools/call \(id 3\) timed out after its max time of 3s, whatever progress said; sent a cancellation$`)
	if !strings.Contains(r.stderr, "progress 2 still working\n") {
		t.Fatalf("the progress did not keep the call alive past --timeout:\n%s", r.stderr)
	}
}

// --max-time is a flag of every command that connects, and must be
// positive.
func TestMaxTimeFlag(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"call", "ping"}, {"tools"}, {"script", "--tool", "x"}} {
		r := mcpscope(t, append(args, "--max-time", "0s", "wt://127.0.0.1:1/mcp")...)
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, "--max-time must be positive, got 0s") {
			t.Fatalf("%s: stderr %q", args[0], r.stderr)
		}
	}
	r := mcpscope(t, "--help")
	if !strings.Contains(r.stdout+r.stderr, "--max-time duration") {
		t.Fatalf("--help does not document --max-time:\n%s", r.stdout)
	}
}

func init() { stubRequestHooks["wizard-chatters"] = wizardChatters }

// wizardChatters runs an interactive session that sends an
// interaction.continue every stubProgressInterval, forever, and never
// completes.
func wizardChatters(out *bufio.Writer, method string, id json.RawMessage) bool {
	reply := func(result string) {
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + "}\n")
		out.Flush()
	}
	switch method {
	case "": // the client's answers
	case "capabilities":
		reply(`{"interactive":true,"version":"0.1.0"}`)
	case "interaction.cancel":
		reply(`{"cancelled":true}`)
	case "interaction.start":
		reply(`{"sessionId":"s1","state":"idle"}`)
		go func() {
			for i := 1; ; i++ {
				line := `{"jsonrpc":"2.0","id":"c` + strconv.Itoa(i) + `","method":"interaction.continue","params":{"sessionId":"s1","message":"still working ` + strconv.Itoa(i) + `"}}` + "\n"
				if _, err := os.Stdout.WriteString(line); err != nil {
					return
				}
				time.Sleep(stubProgressInterval)
			}
		}()
	default:
		return false
	}
	return true
}

// An interactive session that keeps sending and never completes: the
// script's walk ends at --max-time with exit 4, whatever the server sent.
func TestMaxTimeEndsAnEndlessInteraction(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "wizard-chatters")
	r := mcpscopeWithin(t, 8*time.Second, withTarget(argv, "script", "--env", env, "--timeout", "2s", "--max-time", "3s", "--tool", "wiz")...)
	r.mustExit(t, ExitTimeout)
	r.mustSayFirst(t, `^error: interaction s1 of tool "wiz" reached its max time of 3s, whatever the server sent; cancelled it$`)
	if !strings.Contains(r.stderr, "interaction s1: still working 2\n") {
		t.Fatalf("the session's messages did not keep it alive past --timeout:\n%s", r.stderr)
	}
}
