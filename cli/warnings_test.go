package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/stdio"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// stdoutFrame is the frame the stdio transport reports for one stdout line.
func stdoutFrame(line string) *capture.Frame {
	raw := []byte(line)
	f := &capture.Frame{Dir: capture.In, Raw: raw, Size: len(raw), Kept: len(raw)}
	msgs, _, err := jsonrpc.DecodeJSON(raw)
	if err != nil {
		var env *jsonrpc.EnvelopeError
		f.Err = &stdio.StdoutLineError{JSON: errors.As(err, &env) && !env.Malformed, Head: line, Err: err}
		return f
	}
	f.Msg, f.Err = msgs[0], jsonrpc.CheckText(raw)
	return f
}

func TestDecodeWarningNamesWhatIsWrong(t *testing.T) {
	deepNote := `{"jsonrpc":"2.0","method":"n","params":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}"
	for _, c := range []struct{ line, want string }{
		{deepNote, `the server wrote a line on stdout that is not a JSON-RPC message: "{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":…" (it is nested deeper than 10000 levels)`},
		{`{"jsonrpc":"2.0","method":"n"} x`, `the server wrote a line on stdout that is not a JSON-RPC message: "{\"jsonrpc\":\"2.0\",\"method\":\"n\"} x" (it has data after the object, at byte offset 31: x)`},
		{`{"jsonrpc":"2.0","method":"n",`, `the server wrote a non-JSON line on stdout: "{\"jsonrpc\":\"2.0\",\"method\":\"n\","`},
		{"\uFEFF" + `{"jsonrpc":"2.0","method":"n"}`, `a line on stdout from the server was read, but the message started with a UTF-8 byte order mark, which was skipped`},
	} {
		if got := decodeWarning(stdoutFrame(c.line), "line on stdout"); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestStrayAnswersShareTheWarningLimit(t *testing.T) {
	var buf bytes.Buffer
	w := &decodeWarnings{warningCap: warningCap{out: &lineWriter{w: &buf}}, unit: "line on stdout"}
	for i := range warningLimit + 3 {
		w.StrayAnswer(client.StrayAnswer{ID: jsonrpc.IntID(int64(100 + i))})
	}
	w.Flush()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != warningLimit+1 || lines[0] != "warning: the server answered id 100, which mcpscope never sent; it was ignored" ||
		lines[warningLimit] != "warning: 3 more answers that no request was waiting for were not shown" {
		t.Fatalf("lines:\n%s", buf.String())
	}
}

// A control frame cut short by mcpscope's own close of the session (the
// server still writing after its $/shutdown) is kept in the capture but is
// no fault of the server: no warning.
func TestFrameCutByOwnCloseIsNoWarning(t *testing.T) {
	var buf bytes.Buffer
	w := &decodeWarnings{warningCap: warningCap{out: &lineWriter{w: &buf}}, unit: "frame"}
	f := &capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: []byte{0, 0, 0, 0x1f}, Size: 4,
		Err: &webtransport.ClosedMidFrameError{Err: errors.New("shutdown")}}
	w.Append(f)
	w.Flush()
	if buf.Len() != 0 {
		t.Fatalf("warned: %q", buf.String())
	}
}

// Execution stream warnings are capped as the others, and the rest are
// counted instead of dropped without a word.
func TestStreamWarningsCountWhatIsHeldBack(t *testing.T) {
	var buf bytes.Buffer
	w := &streamWarnings{warningCap{out: &lineWriter{w: &buf}}}
	for range warningLimit + 3 {
		w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stream}, Err: errors.New("an injected stream")})
	}
	w.Flush()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != warningLimit+1 || lines[warningLimit] != "warning: 3 more warnings about execution streams were not shown" {
		t.Fatalf("lines:\n%s", buf.String())
	}
}
