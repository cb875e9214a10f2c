package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// earlyExitWords is what the "exit-early" stub writes on stderr before it
// exits 0 without reading a line.
const earlyExitWords = "no config file found"

// Stub modes: "exit-early" writes earlyExitWords on stderr and exits 0
// without reading a line; "stdin-closer" closes its stdin before answering
// initialize, so the notification that follows cannot be written.
func init() {
	stubTakeovers["exit-early"] = func() int {
		fmt.Fprintln(os.Stderr, earlyExitWords)
		return 0
	}
	stubRequestHooks["stdin-closer"] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		if method != "initialize" {
			return false
		}
		os.Stdin.Close()
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"stub","version":"1"}}}` + "\n")
		out.Flush()
		// Stay alive until stopped (at most guard.Hang): the
		// client's next write meets the closed pipe, not a server that
		// already exited.
		time.Sleep(guard.Hang)
		return true
	}
}

// A server that exits 0 before the handshake is said to have gone before
// answering initialize, with its exit status and stderr tail — not "while
// the session was open".
func TestServerExitingBeforeInitialize(t *testing.T) {
	argv, env := stubArgv(t, "exit-early")
	r := mcpscope(t, withTarget(argv, "tools", "--env", env)...)
	r.mustExit(t, ExitConnection)
	want := "error: could not connect to " + argv[0] + ": server exited with status 0 before answering initialize; last stderr: \"" + earlyExitWords + "\"\n"
	if r.stderr != want || r.stdout != "" {
		t.Errorf("stderr\n got %q\nwant %q", r.stderr, want)
	}
}

// A URL with its ':' missing and a URL that is not last on the line are
// named as such, not reported as a missing TARGET.
func TestURLTargetMistakes(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tools", "http//host/mcp"},
			`error: the TARGET "http//host/mcp" looks like a URL missing the ':' after its scheme; did you mean http://host/mcp?`},
		{[]string{"http//host/mcp"},
			`error: the TARGET "http//host/mcp" looks like a URL missing the ':' after its scheme; did you mean http://host/mcp?`},
		{[]string{"call", "tools/list", "http://host/mcp", "{}"},
			`error: the TARGET must come last on the line: the URL "http://host/mcp" is followed by "{}"`},
		{[]string{"tools", "wt://host/mcp", "extra"},
			`error: the TARGET must come last on the line: the URL "wt://host/mcp" is followed by "extra"`},
	}
	for _, c := range cases {
		r := mcpscope(t, c.args...)
		if r.code != ExitUsage || r.stderr != c.want+"\n" {
			t.Errorf("%q: exit %d, stderr %q\nwant %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// A line mcpscope could not write (the server closed its stdin) is traced
// as a write failure, never as a decode error.
func TestTraceNamesAFailedWrite(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "stdin-closer")
	r := mcpscope(t, withTarget(argv, "tools", "--trace", "--env", env)...)
	if r.code == ExitOK {
		t.Fatalf("exit 0; stderr %s", r.stderr)
	}
	var failed string
	for _, line := range strings.Split(r.stderr, "\n") {
		if strings.Contains(line, " → ") && (strings.Contains(line, "error") || strings.Contains(line, "fail")) {
			failed = line
		}
	}
	if !strings.Contains(failed, " → control 0B write failed: the notification notifications/initialized above was not sent whole: ") {
		t.Errorf("no write failure traced:\n%s", r.stderr)
	}
}

// Quitting the TUI after its connection failed exits with the connection's
// code and says why on stderr.
func TestTUIQuitAfterFailedConnectionExitsThree(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-server")
	r := startTUI(t, "--", missing)
	r.waitFor(t, "could not", "Connection doctor", "command")
	// q closes the doctor's checklist, the next q quits.
	if _, err := r.keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if code := r.quit(t); code != ExitConnection {
		t.Fatalf("exit %d, want %d; stderr %q", code, ExitConnection, r.errb.String())
	}
	if got := r.errb.String(); !strings.HasPrefix(got, "error: could not ") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q", got)
	}
}
