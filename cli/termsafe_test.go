package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// hostileText is what a hostile server puts in every text it controls:
// it would retitle the window, write the clipboard, clear the screen and
// ring the bell if it reached a terminal raw.
const hostileText = "boom\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\u009b31m"

// hostileShown is hostileText as mcpscope must show it.
const hostileShown = `boom\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\u009b31m`

// Hostile stub modes: "hostile" puts escape sequences in its stderr, a log
// notification, a notification's method, a progress message and the error
// of tools/call; "hostile-huge" answers tools/call with a 2 MB error
// message.
func init() {
	stubRequestHooks["hostile"] = hostileStub(len(hostileText))
	stubRequestHooks["hostile-huge"] = hostileStub(2 << 20)
}

// hostileStub answers tools/call with an error whose message is n bytes of
// hostile text, after a log notification and a progress notification that
// carry it too.
func hostileStub(n int) func(out *bufio.Writer, method string, id json.RawMessage) bool {
	return func(out *bufio.Writer, method string, id json.RawMessage) bool {
		say := func(v any) {
			b, _ := json.Marshal(v)
			out.Write(append(b, '\n'))
			out.Flush()
		}
		switch method {
		case "initialize":
			fmt.Fprintln(os.Stderr, "stub starting "+hostileText)
			return false
		case "tools/call":
			msg := strings.Repeat(hostileText, n/len(hostileText)+1)[:n]
			say(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
				"params": map[string]any{"level": "error", "logger": hostileText, "data": hostileText}})
			say(map[string]any{"jsonrpc": "2.0", "method": "notifications/" + hostileText})
			say(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
				"params": map[string]any{"progressToken": id, "progress": 1, "total": 2, "message": hostileText}})
			say(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32000, "message": msg}})
			return true
		}
		return false
	}
}

// assertNoEscapes fails when out holds a byte a terminal would act on.
func assertNoEscapes(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.IndexAny(out, "\x1b\x07\u009b"); i >= 0 {
		t.Errorf("%s holds a raw control at byte %d: %q", what, i, out[max(i-40, 0):min(i+40, len(out))])
	}
}

// A hostile server's error message, progress message, log notification,
// notification method and stderr reach stderr shown escaped, never raw.
func TestHostileServerTextIsShownEscaped(t *testing.T) {
	argv, env := stubArgv(t, "hostile")
	r := mcpscope(t, withTarget(argv, "call", "--env", env, "--progress", "--trace", "tools/call", `{"name":"x"}`)...)
	r.mustExit(t, ExitRPCError)
	assertNoEscapes(t, "stderr", r.stderr)
	assertNoEscapes(t, "stdout", r.stdout)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if want := "error: tools/call failed: " + hostileShown + " (code -32000 Server error)"; lines[len(lines)-1] != want {
		t.Errorf("last line\n got %q\nwant %q", lines[len(lines)-1], want)
	}
	for _, want := range []string{
		"progress 1/2 " + hostileShown,               // the progress message
		`stderr`,                                     // the stderr line in the trace
		`"stub starting ` + hostileShown + `"`,       // … quoted and escaped
		"notification notifications/" + hostileShown, // a method name
		"error id=3 -32000 " + hostileShown,          // the error in the trace
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// A 2 MB error message is cut to a line that says how much was left out.
func TestHostileHugeErrorMessageIsShortened(t *testing.T) {
	argv, env := stubArgv(t, "hostile-huge")
	r := mcpscope(t, withTarget(argv, "call", "--env", env, "tools/call", `{"name":"x"}`)...)
	r.mustExit(t, ExitRPCError)
	assertNoEscapes(t, "stderr", r.stderr)
	if !strings.HasPrefix(r.stderr, "error: tools/call failed: "+hostileShown) ||
		!strings.Contains(r.stderr, fmt.Sprintf("… (%d bytes, ", 2<<20)) || len(r.stderr) > 6<<10 {
		t.Errorf("stderr (%d bytes) %.300q … %q", len(r.stderr), r.stderr, r.stderr[max(len(r.stderr)-100, 0):])
	}
}

// An MCP-Flow log or progress datagram's text is traced escaped.
func TestDatagramSummaryEscapesServerText(t *testing.T) {
	data, _ := json.Marshal(hostileText)
	for _, c := range []struct {
		ch      flow.DatagramChannel
		payload interface {
			Encode(proto.Encoding) ([]byte, error)
		}
		want string
	}{
		{flow.ChannelLog, flow.LogDatagram{Level: hostileText, Logger: hostileText, Data: data}, "log " + hostileShown + " " + hostileShown + ": "},
		{flow.ChannelProgress, flow.ProgressDatagram{Progress: 1, Total: 2, Message: hostileText}, "progress 1/2 " + hostileShown},
	} {
		body, err := c.payload.Encode(proto.EncJSON)
		if err != nil {
			t.Fatal(err)
		}
		raw := flow.DatagramHeader{Channel: c.ch, RequestID: 3}.Append(nil)
		f := &capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Datagram, Ch: uint8(c.ch)}, Raw: append(raw, body...), Enc: proto.EncJSON}
		got := datagramSummary(f)
		assertNoEscapes(t, "summary", got)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("got  %q\nwant %q…", got, c.want)
		}
	}
}
