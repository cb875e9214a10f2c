package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// exportSession is what the tests of export record: a request line, an
// answer, a stderr line holding escape sequences and an execution stream
// (its header frame, a chunk, its announced size and end), at local
// times from 12:03:04.123.
type exportSession struct {
	frames []*capture.Frame
	key    capture.StreamKey
}

func newExportSession(t *testing.T) exportSession {
	t.Helper()
	at := time.Date(2026, 11, 25, 12, 3, 4, 123000000, time.Local)
	line := func(ms int, dir capture.Dir, body string) *capture.Frame {
		m, err := jsonrpc.DecodeMessage([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		raw := []byte(body + "\n")
		return &capture.Frame{Time: at.Add(time.Duration(ms) * time.Millisecond), Dir: dir, Conn: "stdio", Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m}
	}
	stream := capture.Channel{Kind: capture.Stream, ReqID: 2, Tag: 1}
	return exportSession{key: capture.StreamKey{Conn: "wt", ReqID: 2, Tag: 1}, frames: []*capture.Frame{
		line(0, capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file"}}`),
		{Time: at.Add(time.Millisecond), Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("\x1b[31mboom\x1b[0m\n"), Size: 14, Enc: proto.EncText},
		{Time: at.Add(2 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: stream, Raw: []byte{0, 0, 0, 2, 0, 0, 0, 1}, Size: 8, Enc: proto.EncBinary,
			Fields: []proto.Field{{Offset: 0, Len: 4, Name: "request id"}, {Offset: 4, Len: 4, Name: "stream tag"}}},
		{Time: at.Add(3 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: stream, Raw: []byte("0123456789"), Size: 10, Enc: proto.EncBinary,
			Fields: []proto.Field{{Offset: 0, Len: 10, Name: "payload", Kind: proto.FieldBody}}},
		line(4, capture.In, `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`),
	}}
}

// feed hands the session to a sink that also takes notes.
func (s exportSession) feed(sink capture.Tap) {
	sink.Note(capture.StreamSized{Key: s.key, Size: 10})
	for _, f := range s.frames {
		c := *f
		sink.Append(&c)
	}
	sink.Note(capture.StreamMarked{Key: s.key, State: capture.StreamDone})
}

// write records the session into a file and returns its path.
func (s exportSession) write(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.mcpscope.jsonl")
	w, err := recordings.Create(path, recordings.Header{Target: "demo", Transport: "stdio"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.feed(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// `export --format text` prints what --trace printed: the same sink fed
// the recorded frames, server text escaped, a stream as its opening and
// end lines, the end at the time recorded for it.
func TestExportTextIsWhatTracePrinted(t *testing.T) {
	s := newExportSession(t)
	var live bytes.Buffer
	s.feed(newStreamTrace(&lineWriter{w: &live}))
	path := s.write(t)
	rec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The writer stamps a stream's end with the clock: make it 5 ms after
	// the stream opened.
	ended := s.frames[2].Time.Add(5 * time.Millisecond).UnixNano()
	rec = regexp.MustCompile(`"k":"mark","t":\d+`).ReplaceAll(rec, fmt.Appendf(nil, `"k":"mark","t":%d`, ended))
	if err := os.WriteFile(path, rec, 0o600); err != nil {
		t.Fatal(err)
	}

	r := exportCmd(t, nil, "--format", "text", path)
	r.mustExit(t, ExitOK)
	if r.stderr != "" || strings.Contains(r.stdout, "\x1b") {
		t.Fatalf("stderr %q; stdout holds a raw escape: %q", r.stderr, r.stdout)
	}
	for _, want := range []string{
		"12:03:04.123 → control 77B request tools/call id=2\n",
		`12:03:04.124 ← stderr 14B "\x1b[31mboom\x1b[0m"` + "\n",
		"12:03:04.125 ← stream 2/1 8B open\n",
		"12:03:04.127 ← control 49B result id=2\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("export lacks %q:\n%s", want, r.stdout)
		}
	}
	if got, want := traceOf(r.stdout), traceOf(live.String()); strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != 5 {
		t.Errorf("export:\n%s\nlive trace:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasSuffix(r.stdout, "12:03:04.130 ← stream 2/1 done 10B of 10B in 5ms\n") {
		t.Errorf("the stream's end line is not last, at its recorded time:\n%s", r.stdout)
	}
}

// A torn last line (a crash) is expected: everything before it is
// exported, a warning names it, and export exits 0. A corrupt line is
// skipped with a warning naming it, the rest exported, and export exits 2.
// "-" reads the recording from standard input.
func TestExportDamagedRecordings(t *testing.T) {
	s := newExportSession(t)
	whole, err := os.ReadFile(s.write(t))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(whole, []byte("\n"))
	frameLines := bytes.Count(whole, []byte(`"k":"frame"`))

	// The session's last frame is line 7; cut it in the middle.
	torn := append(bytes.Join(lines[:6], nil), lines[6][:20]...)
	r := exportCmd(t, torn, "-")
	r.mustExit(t, ExitOK)
	if n := strings.Count(r.stdout, `"kind":"frame"`); n != frameLines-1 {
		t.Errorf("torn: %d frames exported, want %d", n, frameLines-1)
	}
	if !strings.Contains(r.stderr, "warning: the recording is cut short: line 7 (byte ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("torn: stderr %q", r.stderr)
	}

	corrupt := append(bytes.Join(lines[:3], nil), "{\"k\":\"frame\",\x1b[2J\n"...)
	corrupt = append(corrupt, bytes.Join(lines[3:], nil)...)
	path := filepath.Join(t.TempDir(), "corrupt.jsonl")
	if err := os.WriteFile(path, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	r = exportCmd(t, nil, "--format", "text", path)
	r.mustExit(t, ExitUsage)
	if n := len(traceOf(r.stdout)); n != 5 {
		t.Errorf("corrupt: %d trace lines exported, want 5:\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stderr, "warning: line 4 (byte ") || !strings.Contains(r.stderr, "is corrupt") ||
		!strings.Contains(r.stderr, "error: the recording holds 1 corrupt line ") || strings.Contains(r.stderr, "\x1b") {
		t.Errorf("corrupt: stderr %q", r.stderr)
	}
}

// A file that is no recording, a missing one, an unknown format, a
// missing or extra argument, and HAR of a session not over HTTP are usage
// errors (exit 2) that say what to do.
func TestExportUsageErrors(t *testing.T) {
	path := newExportSession(t).write(t)
	notRecording := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notRecording, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(t.TempDir(), "missing.jsonl")}, "opening the recording"},
		{[]string{notRecording}, "not an mcpscope recording"},
		{[]string{"--format", "csv", path}, `unknown --format "csv": use jsonl, har or text`},
		{nil, "export takes one FILE"},
		{[]string{path, path}, "export takes one FILE"},
		{[]string{"--format", "har", path}, "this recording is of a session over stdio: export it with --format jsonl or --format text"},
	} {
		r := exportCmd(t, nil, c.args...)
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%q: stdout %q, stderr %q, want %q", c.args, r.stdout, r.stderr, c.want)
		}
	}
}

// A file that never ends and holds no recording (/dev/zero) is refused at
// once by export and replay, naming what a recording starts with.
func TestExportAndReplayRefuseAnEndlessFile(t *testing.T) {
	const want = "/dev/zero: not an mcpscope recording: the first line is not a mcpscope-recording header (the line is longer than 64 KiB)"
	r := exportCmd(t, nil, "/dev/zero")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("export: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = mcpscope(t, "replay", "/dev/zero")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, want) {
		t.Errorf("replay: stderr %q", r.stderr)
	}
}
