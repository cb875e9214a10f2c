package recordings

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// setReadLimits sets the read buffer and what a line may hold for one test.
func setReadLimits(t testing.TB, buffer int, keep keepLimits) {
	oldBuf, oldKeep := readBuffer, readKeep
	readBuffer, readKeep = buffer, keep
	t.Cleanup(func() { readBuffer, readKeep = oldBuf, oldKeep })
}

// readRecords reads every record of b, corrupt lines as their errors.
func readRecords(t testing.TB, b []byte) ([]*Record, []string) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var recs []*Record
	var errs []string
	for {
		rec, err := r.Next()
		switch {
		case err == io.EOF:
			return recs, errs
		case err != nil:
			errs = append(errs, err.Error())
			var ce *CorruptError
			if !errors.As(err, &ce) {
				return recs, errs
			}
		default:
			recs = append(recs, rec)
		}
	}
}

// escapedRecording is a recording whose frames need every kind of escape,
// bytes that are not UTF-8 and a message kept beside the frame.
func escapedRecording(t testing.TB) []byte {
	b := validRecording(t)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Transport: "stdio"}, Options{NoRedact: true})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"jsonrpc":"2.0","method":"m","params":{"s":"\"\\ \u2028 😀 \u0001\t\n"}}`)
	m, _ := jsonrpc.Decode(proto.EncJSON, body)
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: append(bytes.Clone(body), '\n'), Msg: m})
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: []byte{0xff, 0, 1, 2}, Msg: m, Enc: proto.EncCBOR})
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("\x01\x1b[31m é \u2029\n"), Enc: proto.EncText})
	_ = w.Close()
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	return append(b, bytes.Join(lines[1:], nil)...)
}

// A line longer than the read buffer, read in pieces with its frame's
// bytes apart, gives the same records as one read whole.
func TestLongLinesReadAsShortOnes(t *testing.T) {
	rec := escapedRecording(t)
	hand := `{"k":"frame","dir":"in","ch":"control","fields":[{"o":0,"n":2,"f":"text"}],"text":"\ud83d\ude00\ud800x\udc00\/","msg":[0,4]}` + "\n" +
		`{"k":"frame","b64":"AAEC","mb64":"e30=","menc":"json","dir":"out","ch":"control"}` + "\n" +
		`{"k":"stream_rest","total":5,"chunks":1,"b64":"AQID"}` + "\n"
	rec = append(rec, hand...)
	want, wantErrs := readRecords(t, rec)
	setReadLimits(t, 16, readKeep)
	got, gotErrs := readRecords(t, rec)
	if len(wantErrs) > 0 || len(gotErrs) > 0 {
		t.Fatalf("errors: whole %v, in pieces %v", wantErrs, gotErrs)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records in pieces, %d whole", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("record %d:\nin pieces %+v\nwhole     %+v", i, got[i], want[i])
		}
	}
}

// A line whose frame holds more than a recording keeps, or that holds
// more than its limit besides the frame's bytes, is reported corrupt and
// skipped without being held, and the next line reads. (A message body or
// annotations past the limits are dropped, not the line: fieldskeep_test.)
func TestLineOverTheLimitIsSkippedUnheld(t *testing.T) {
	setReadLimits(t, 4<<10, keepLimits{value: 64 << 10, rest: 4 << 10, skip: true})
	var in bytes.Buffer
	in.WriteString(`{"format":"mcpscope-recording","version":1,"transport":"stdio"}` + "\n")
	for _, member := range []string{"text", "b64"} {
		in.WriteString(`{"k":"frame","dir":"in","ch":"control","` + member + `":"`)
		in.WriteString(strings.Repeat("QUFB", 2<<20))
		in.WriteString(`"}` + "\n")
	}
	in.WriteString(`{"k":"frame","dir":"in","ch":"control","err":"` + strings.Repeat("x", 8<<10) + `"}` + "\n")
	in.WriteString(`{"k":"frame","dir":"in","ch":"control","text":"ok"}` + "\n")
	r, err := NewReader(bytes.NewReader(in.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var errs []string
	var frames []string
	d, err := Walk(r, func(rec *Record) error { frames = append(frames, string(rec.Frame.Raw)); return nil })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Corrupt {
		errs = append(errs, c.Err.Error())
	}
	wantErrs := []string{
		`its "text" holds more than the 64 KiB a recording keeps of one frame`,
		`its "b64" holds more than the 64 KiB a recording keeps of one frame`,
		`the line holds more than 4 KiB besides a frame's bytes`,
	}
	if !reflect.DeepEqual(errs, wantErrs) || d.Skipped != 3 || !reflect.DeepEqual(frames, []string{"ok"}) {
		t.Errorf("corrupt %q (%d skipped), frames %q", errs, d.Skipped, frames)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("skipping %d MiB of lines allocated %d KiB", in.Len()>>20, alloc>>10)
	}
}

// endless is a reader that never ends, counting what it gave.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += len(p)
	return len(p), nil
}

// A file that is no recording (/dev/zero) is refused after its first
// bytes: the header line has a small cap.
func TestHeaderLineIsCapped(t *testing.T) {
	src := &endless{}
	_, err := NewReader(src)
	if err == nil || err.Error() != "not an mcpscope recording: the first line is not a mcpscope-recording header (the line is longer than 64 KiB)" {
		t.Errorf("error %v", err)
	}
	if src.n > readBuffer+headerKeep.rest {
		t.Errorf("read %d bytes of a file that is no recording", src.n)
	}
	long := `{"format":"mcpscope-recording","version":1,"target":"` + strings.Repeat("x", 64<<10) + `"}` + "\n"
	if _, err := NewReader(strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "longer than 64 KiB") {
		t.Errorf("a long header line: %v", err)
	}
}

// The piecewise unquoting reads every string as encoding/json does,
// however the string is cut.
func FuzzUnquoter(f *testing.F) {
	f.Add([]byte(`\ud83d\ude00\u0000\/ \" \\ x`), 3)
	f.Add([]byte(`\ud800\ud800\udc00 \udc00 é`), 1)
	f.Fuzz(func(t *testing.T, s []byte, cut int) {
		quoted := append(append([]byte{'"'}, s...), '"')
		var want string
		jsonErr := json.Unmarshal(quoted, &want)
		var u unquoter
		var got []byte
		rest := quoted[1:]
		step := max(1, cut%7+1)
		var done bool
		var err error
		for len(rest) > 0 && !done && err == nil {
			var n int
			n, done, err = u.unquote(&got, rest[:min(step, len(rest))])
			rest = rest[n:]
		}
		ok := done && err == nil && len(rest) == 0
		if ok != (jsonErr == nil) {
			t.Fatalf("%q: unquoted %v (err %v, rest %q), encoding/json %v", s, ok, err, rest, jsonErr)
		}
		if ok && string(validUTF8(got)) != want {
			t.Fatalf("%q: unquoted %q, encoding/json %q", s, validUTF8(got), want)
		}
	})
}

// The Writer keeps no message body beside a frame's bytes that a Reader
// would refuse: past maxBodyKeep the frame stands alone, and reads.
func TestWriterKeepsNoBodyAReaderRefuses(t *testing.T) {
	setReadLimits(t, 256, keepLimits{value: 1 << 10, rest: 1 << 10, skip: true})
	old := maxBodyKeep
	maxBodyKeep = 1 << 10
	t.Cleanup(func() { maxBodyKeep = old })
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Transport: "stdio"}, Options{})
	body := []byte(`{"jsonrpc":"2.0","method":"m","params":{"s":"` + strings.Repeat("x", 2<<10) + `"}}`)
	m, _ := jsonrpc.Decode(proto.EncJSON, body)
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: []byte{0xa1, 1, 2}, Msg: m, Enc: proto.EncCBOR})
	_ = w.Close()
	recs, errs := readRecords(t, buf.Bytes())
	if len(errs) > 0 || len(recs) != 2 || recs[0].Frame == nil || !bytes.Equal(recs[0].Frame.Raw, []byte{0xa1, 1, 2}) {
		t.Fatalf("records %+v, errors %v", recs, errs)
	}
}

// FuzzLineInPieces: a line read in pieces, its frame's bytes apart and
// cut wherever seed says, is the record the line read whole is, and is
// refused when that is: names spelled otherwise than mcpscope writes
// them, escaped, or a null in place of a frame's bytes included.
func FuzzLineInPieces(f *testing.F) {
	for i, l := range bytes.Split(escapedRecording(f), []byte("\n"))[1:] {
		f.Add(l, uint64(i))
	}
	f.Add([]byte(`{"k":"frame","dir":"in","ch":"control","text":"\ud83d\ude00\ud800x\/","msg":[0,4],"fields":[{"o":0,"n":1,"f":"text","v":"\"text\""}]}`), uint64(0))
	f.Add([]byte(`{"k":"stream_rest","b64":"AQ\/D","text":"x","total":1}`), uint64(1))
	p := `{"k":"frame","dir":"in","ch":"control",`
	for i, l := range []string{
		p + `"text":"A","Text":"B"}`,
		p + `"Text":"A","b64":"QkI="}`,
		p + `"text":"A","text":null}`,
		p + `"t\u0065xt":"A","b64":"QkI="}`,
		p + `"text":"A","t\u0065xt":"B"}`,
		p + `"b64":"QkI=","b64":null}`,
		p + `"text" : "A" , "b64" : "QkI="}`,
		p + `"fields":[{"o":0,"n":1,"f":"text"}],"text":"\ud83d\ude00"}`,
		p + `"MTEXT":"{}","mtext":"[]"}`,
	} {
		f.Add([]byte(l), uint64(i))
	}
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		if bytes.IndexByte(b, '\n') >= 0 {
			return
		}
		whole, wholeErr := decodeLine(b, nil)
		s := newLineScan(keepLimits{value: 1 << 20, rest: 1 << 20, skip: true})
		cut := rand.New(rand.NewPCG(seed, seed>>32))
		for rest := b; len(rest) > 0; {
			n := min(1+cut.IntN(16), len(rest))
			s.feed(rest[:n])
			rest = rest[n:]
		}
		rest, sv, err := s.finish()
		var pieces *Record
		if err == nil {
			pieces, err = decodeLine(rest, sv)
		}
		if (err == nil) != (wholeErr == nil) {
			t.Fatalf("%q: in pieces %v, whole %v", b, err, wholeErr)
		}
		if err == nil && !reflect.DeepEqual(pieces, whole) {
			t.Fatalf("%q:\nin pieces %+v\nwhole     %+v", b, pieces, whole)
		}
	})
}
