//go:build unix

package stdio

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

func TestStderrLinesBecomeTextFrames(t *testing.T) {
	tr, rec, inbox := startFake(t, "stderr-flood", nil)
	send(t, tr, request(t, 1, "ping", nil))
	recv(t, inbox)
	rec.waitFor(t, "last stderr", func(f *capture.Frame) bool {
		return f.Chan.Kind == capture.Stderr && string(f.Raw) == "last words\n"
	})
	frames := rec.all(isDir(capture.In, capture.Stderr))
	if len(frames) != 5002 {
		t.Fatalf("%d stderr frames, want 5002", len(frames))
	}
	for i, f := range frames[:5000] {
		if want := fmt.Sprintf("log line %d\n", i); string(f.Raw) != want || f.Enc != proto.EncText || f.Err != nil {
			t.Fatalf("stderr frame %d = %q enc %v err %v", i, f.Raw, f.Enc, f.Err)
		}
	}
	checkLineFields(t, frames[0], len(frames[0].Raw)-1, "LF")

	cut := frames[5000]
	var tooLong *LineTooLongError
	if !errors.As(cut.Err, &tooLong) || tooLong.Size != 200<<10+1 || cut.Size != 200<<10+1 ||
		len(cut.Raw) != maxStderrLine || cut.Kept != maxStderrLine || strings.Trim(string(cut.Raw), "x") != "" {
		t.Fatalf("long stderr line: size %d kept %d raw %d err %v", cut.Size, cut.Kept, len(cut.Raw), cut.Err)
	}
	if tr.Err() != nil {
		t.Fatalf("Err = %v", tr.Err())
	}
	tail := tr.tail.snapshot()
	if len(tail) != DefaultStderrTail || tail[len(tail)-1] != "last words" ||
		!strings.HasSuffix(tail[len(tail)-2], "[line cut]") || tail[0] != "log line 4982" {
		t.Fatalf("tail = %q…", tail[:2])
	}
}

func TestStderrTailKeepsTheLastLines(t *testing.T) {
	tail := newStderrTail(3)
	if got := tail.snapshot(); len(got) != 0 {
		t.Fatalf("empty tail = %q", got)
	}
	tail.add("a")
	tail.add("b")
	if got := strings.Join(tail.snapshot(), ","); got != "a,b" {
		t.Fatalf("tail = %s", got)
	}
	for _, s := range []string{"c", "d", "e"} {
		tail.add(s)
	}
	if got := strings.Join(tail.snapshot(), ","); got != "c,d,e" {
		t.Fatalf("tail = %s", got)
	}
}

func TestExitErrorSentences(t *testing.T) {
	for _, c := range []struct {
		err  *ExitError
		want string
	}{
		{&ExitError{ExitCode: 1, Stderr: []string{"a", "b"}},
			`server exited with status 1 while the session was open; last stderr: "a" | "b"`},
		{&ExitError{ExitCode: -1, Signal: "SIGKILL"},
			`server was killed by SIGKILL while the session was open; it wrote nothing to stderr`},
		{&ExitError{ExitCode: 0, Err: errStdoutClosed, Stderr: []string{strings.Repeat("z", 300)}},
			`server exited with status 0 while the session was open (it had closed its stdout, so mcpscope stopped it); last stderr: "` + strings.Repeat("z", maxTailShown) + `… (300 bytes, 44 not shown)"`},
		{&ExitError{ExitCode: 2, Stderr: []string{"say \"hi\"\x1b]0;PWNED\x07\x1b[2J"}},
			`server exited with status 2 while the session was open; last stderr: "say \"hi\"\x1b]0;PWNED\x07\x1b[2J"`},
		{BeforeInitialize(&ExitError{ExitCode: 0, Stderr: []string{"no config"}}).(*ExitError),
			`server exited with status 0 before answering initialize; last stderr: "no config"`},
		{BeforeInitialize(&client.ConnectionError{Err: &ExitError{ExitCode: -1, Signal: "SIGTERM"}}).(*ExitError),
			`server was killed by SIGTERM before answering initialize; it wrote nothing to stderr`},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %s\nwant      %s", got, c.want)
		}
	}
}
