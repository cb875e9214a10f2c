package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
)

// exportedFrame is a frame object of `mcpscope export` (JSON Lines).
type exportedFrame struct {
	Kind        string  `json:"kind"`
	Seq         int     `json:"seq"`
	Dir         string  `json:"dir"`
	Conn        string  `json:"conn"`
	Channel     string  `json:"channel"`
	Size        int     `json:"size"`
	Encoding    string  `json:"encoding"`
	Text        *string `json:"text"`
	Base64      []byte  `json:"base64"`
	Annotations []struct {
		Offset int    `json:"offset"`
		Length int    `json:"length"`
		Name   string `json:"name"`
		Kind   string `json:"kind"`
	} `json:"annotations"`
	Message *struct {
		Kind   string          `json:"kind"`
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	} `json:"message"`
}

// bytes returns the frame's exact bytes.
func (f exportedFrame) bytes() []byte {
	if f.Text != nil {
		return []byte(*f.Text)
	}
	return f.Base64
}

// payload returns the payload of a stream frame, as the store reads it
// from the annotations.
func (f exportedFrame) payload() []byte {
	cf := &capture.Frame{Raw: f.bytes()}
	kinds := map[string]proto.FieldKind{"header": proto.FieldHeader, "body": proto.FieldBody, "delimiter": proto.FieldDelimiter}
	for _, a := range f.Annotations {
		cf.Fields = append(cf.Fields, proto.Field{Offset: a.Offset, Len: a.Length, Name: a.Name, Kind: kinds[a.Kind]})
	}
	var out []byte
	capture.ForEachPayload(cf, func(p []byte) { out = append(out, p...) })
	return out
}

// exportCmd runs `mcpscope export ARGS…` with stdin and returns what it
// wrote.
func exportCmd(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var out, errb bytes.Buffer
	code := Execute(ctx, append([]string{"export"}, args...), bytes.NewReader(stdin), &out, &errb)
	if ctx.Err() != nil {
		t.Errorf("mcpscope export %s was still running after %s", strings.Join(args, " "), guard.Run)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// exportFrames exports the recording at path as JSON Lines and returns
// its frames.
func exportFrames(t *testing.T, path string) []exportedFrame {
	t.Helper()
	r := exportCmd(t, nil, path)
	r.mustExit(t, ExitOK)
	var frames []exportedFrame
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var f exportedFrame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		if f.Kind == "frame" {
			frames = append(frames, f)
		}
	}
	if len(frames) == 0 {
		t.Fatalf("the export holds no frame:\n%s", r.stdout)
	}
	return frames
}

// framesOn returns the frames of a direction ("out", "in") and channel,
// in order.
func framesOn(frames []exportedFrame, dir, channel string) []exportedFrame {
	var out []exportedFrame
	for _, f := range frames {
		if f.Dir == dir && f.Channel == channel {
			out = append(out, f)
		}
	}
	return out
}

// traceStart is how a --trace line starts: time and direction.
var traceStart = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} [→←] `)

// streamEndLine matches the end line of a stream, whose time and duration an
// export reads from the recording's mark rather than the clock.
var streamEndLine = regexp.MustCompile(`^\S+ (← stream \d+/\d+ (?:done|error|reset) \d+B(?: of \d+B)?)(?: in \S+)?(.*)$`)

// traceOf returns the trace lines of stderr, sorted (frames appended by
// two goroutines at once may reach the trace and the recording in either
// order), each stream end line without its time and duration.
func traceOf(stderr string) []string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if !traceStart.MatchString(l) {
			continue
		}
		if m := streamEndLine.FindStringSubmatch(l); m != nil {
			l = m[1] + m[2]
		}
		lines = append(lines, l)
	}
	slices.Sort(lines)
	return lines
}

// checkTextIsTrace fails unless `export --format text` of the recording
// at path prints the lines --trace printed on stderr during the run.
func checkTextIsTrace(t *testing.T, stderr, path string) {
	t.Helper()
	r := exportCmd(t, nil, "--format", "text", path)
	r.mustExit(t, ExitOK)
	want, got := traceOf(stderr), traceOf(r.stdout)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("export --format text:\n%s\n--trace:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := strings.Count(r.stdout, "\n"); n != len(got) {
		t.Errorf("export --format text printed %d lines, %d of them trace lines:\n%s", n, len(got), r.stdout)
	}
}
