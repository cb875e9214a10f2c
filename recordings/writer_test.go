package recordings

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// readAll reads every record of a recording in buf.
func readAll(t *testing.T, b []byte) (Header, []*Record, error) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var recs []*Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return r.Header(), recs, nil
		}
		if err != nil {
			return r.Header(), recs, err
		}
		recs = append(recs, rec)
	}
}

// Credentials never reach the file: secret JSON members, the values of
// secret --header flags wherever they appear, and secret header lines;
// the masks keep every length, so framing and annotations stay true.
func TestRedactionMasksSecretsKeepingLengths(t *testing.T) {
	token := "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig0123456789abcdef"
	body := `{"jsonrpc":"2.0","id":1,"result":{"access_token":"` + token + `","token_type":"Bearer","maxTokens":5,"nested":{"client_secret":"s3cr3t!!"}}}` + "\n"
	head := "POST /mcp HTTP/1.1\r\nAuthorization: Bearer " + token + "\r\nX-Team-Key: k1\r\nAccept: */*\r\n\r\n"
	stderr := "debug: using key " + token + "\n"
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{}, Options{Secrets: []string{"Bearer " + token, token}, SecretHeaders: []string{"X-Team-Key"}})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := jsonrpc.DecodeMessage([]byte(body[:len(body)-1]))
	w.Append(&capture.Frame{Dir: capture.In, Conn: "stdio", Raw: []byte(body), Msg: m})
	w.Append(&capture.Frame{Dir: capture.Out, Conn: "http POST 1", Chan: capture.Channel{Kind: capture.HTTP}, Raw: []byte(head), Enc: proto.EncText})
	w.Append(&capture.Frame{Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte(stderr), Enc: proto.EncText})
	_ = w.Close()
	file := buf.String()
	for _, secret := range []string{token, "s3cr3t!!", "k1\\r"} {
		if strings.Contains(file, secret) {
			t.Errorf("the recording holds %q:\n%s", secret, file)
		}
	}
	_, recs, err := readAll(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	lens := []int{len(body), len(head), len(stderr)}
	for i, rec := range recs[:3] {
		if len(rec.Frame.Raw) != lens[i] {
			t.Errorf("frame %d: %d bytes, want %d", i, len(rec.Frame.Raw), lens[i])
		}
	}
	got := string(recs[0].Frame.Raw)
	if !strings.Contains(got, `"access_token":"<redacted 57 bytes>`) || !strings.Contains(got, `"maxTokens":5`) || !strings.Contains(got, `"token_type":"Bearer"`) {
		t.Errorf("body: %s", got)
	}
	if recs[0].Frame.Msg == nil {
		t.Error("the redacted body no longer decodes")
	}
	if got := string(recs[1].Frame.Raw); !strings.Contains(got, "X-Team-Key: **\r\n") || !strings.Contains(got, "Accept: */*") {
		t.Errorf("head: %q", got)
	}
}

// JSON carried as text inside a JSON string (a tool's result) has its
// secret members masked too.
func TestRedactionMasksJSONInsideAString(t *testing.T) {
	body := `{"result":{"content":[{"type":"text","text":"{\"access_token\": \"ya29.secret\\\"x\",\"scope\":\"read\"}"}]}}`
	got := string((&redactor{}).redact([]byte(body), true))
	if strings.Contains(got, "ya29") || !strings.Contains(got, `\"scope\":\"read\"`) || len(got) != len(body) {
		t.Errorf("got %s", got)
	}
}

// HoldsMask finds a value Redact masked with words, and nothing in a body
// without one.
func TestHoldsMask(t *testing.T) {
	body := []byte(`{"params":{"name":"login","arguments":{"password":"correct horse battery staple"}}}`)
	if HoldsMask(body) {
		t.Errorf("HoldsMask(%s)", body)
	}
	if masked := Redact(body); !HoldsMask(masked) {
		t.Errorf("HoldsMask(%s) is false", masked)
	}
}

// A form body's secret fields are masked, the rest kept.
func TestRedactionMasksFormFields(t *testing.T) {
	body := "grant_type=refresh_token&refresh_token=r-123456&client_id=app&client_secret=shh-9999"
	got := string((&redactor{}).redact([]byte(body), true))
	want := "grant_type=refresh_token&refresh_token=********&client_id=app&client_secret=********"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A form field masked already (the OAuth flow masks its frames before the
// recording does) stays as it was: masking is idempotent, its words whole.
func TestRedactionKeepsAMaskedFormField(t *testing.T) {
	body := []byte("client_id=app&client_secret=shh-0123456789abcdefghij&code_verifier=v-0123456789abcdefghijklmnopqrstuvwxyz")
	once := Redact(body)
	if twice := Redact(once); string(twice) != string(once) {
		t.Errorf("masked again:\nonce  %s\ntwice %s", once, twice)
	}
	if want := "client_secret=<redacted 24 bytes>"; !strings.Contains(string(once), want) {
		t.Errorf("%s does not hold %q", once, want)
	}
}

// A secret never reaches the file through a capped stream's cut or tail,
// a stream's label or mark, an SSE event or a violation.
func TestRedactionCoversEveryRecord(t *testing.T) {
	secret := "sk-live-0123456789"
	key := capture.StreamKey{Conn: "wt", ReqID: 1, Tag: 1}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{Secrets: []string{secret}, StreamMax: 90})
	payload := func(s string) *capture.Frame {
		return &capture.Frame{Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 1, Tag: 1},
			Raw: append([]byte{0xAA, 0xBB}, s...), Fields: []proto.Field{{Offset: 0, Len: 2, Name: "header"}, {Offset: 2, Len: len(s), Name: "payload", Kind: proto.FieldBody}}}
	}
	w.Append(payload(strings.Repeat("x", 80) + secret)) // crosses the cap inside the secret
	w.Append(payload("tail " + secret))
	w.LabelStream(key, capture.StreamLabel{Text: "upload of " + secret})
	w.MarkStream(key, capture.StreamError, errors.New("refused: "+secret))
	w.SSEEvent("http GET 1", 0, 10, secret)
	w.EndSSE("http GET 1", capture.SSEBroken, "cut after "+secret)
	_ = w.Close()
	if strings.Contains(buf.String(), secret) || strings.Contains(buf.String(), "sk-live") {
		t.Errorf("the recording holds the secret:\n%s", buf.String())
	}
}

// --no-redact keeps every byte.
func TestNoRedactKeepsSecrets(t *testing.T) {
	body := `{"access_token":"abcdefgh"}`
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{NoRedact: true, Secrets: []string{"abcdefgh"}})
	w.Append(&capture.Frame{Dir: capture.In, Raw: []byte(body)})
	_ = w.Close()
	h, recs, _ := readAll(t, buf.Bytes())
	if h.Redaction != RedactNone || string(recs[0].Frame.Raw) != body {
		t.Errorf("redaction %q, bytes %q", h.Redaction, recs[0].Frame.Raw)
	}
}

// chunk returns an execution stream frame with a 2-byte header and n
// payload bytes of b.
func chunk(key capture.StreamKey, b byte, n int) *capture.Frame {
	raw := append([]byte{0xAA, 0xBB}, bytes.Repeat([]byte{b}, n)...)
	return &capture.Frame{Time: time.Now(), Dir: capture.In, Conn: key.Conn, Chan: capture.Channel{Kind: capture.Stream, ReqID: key.ReqID, Tag: key.Tag},
		Raw: raw, Enc: proto.EncBinary, Fields: []proto.Field{{Offset: 0, Len: 2, Name: "header"}, {Offset: 2, Len: n, Name: "payload", Kind: proto.FieldBody}}}
}

// A stream past StreamMax keeps its head whole, then only totals and its
// tail: replayed, the store shows the true byte and chunk counts and the
// stream's real last bytes.
func TestStreamPastTheCapKeepsHeadTotalsAndTail(t *testing.T) {
	key := capture.StreamKey{Conn: "wt", ReqID: 4, Tag: 1}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{StreamMax: 1000})
	live := capture.NewStore(capture.Config{})
	sink := capture.Tee(live, w)
	for i := range 50 {
		sink.Append(chunk(key, byte('a'+i%26), 100))
	}
	capture.Note(sink, capture.StreamMarked{Key: key, State: capture.StreamDone})
	_ = w.Close()
	_, recs, err := readAll(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	store, p := NewStore(capture.Config{})
	frames := 0
	for _, rec := range recs {
		if rec.Kind == RecFrame {
			frames++
		}
		p.Apply(rec)
	}
	if frames != 10 {
		t.Errorf("%d chunk frames written whole, want 10", frames)
	}
	got, _ := store.Stream(key)
	want, _ := live.Stream(key)
	if got.Bytes != 5000 || got.Chunks != 50 || got.State != capture.StreamDone || got.Bytes != want.Bytes {
		t.Errorf("replayed stream %+v, live %+v", got, want)
	}
	if !bytes.Equal(store.StreamTail(key), live.StreamTail(key)) {
		t.Errorf("tail %q, live %q", store.StreamTail(key), live.StreamTail(key))
	}
}

// The chunk that crosses the cap keeps the part within it.
func TestCrossingChunkIsCut(t *testing.T) {
	key := capture.StreamKey{Conn: "wt", ReqID: 4, Tag: 1}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{StreamMax: 150})
	w.Append(chunk(key, 'x', 100))
	w.Append(chunk(key, 'y', 100))
	_ = w.Close()
	_, recs, _ := readAll(t, buf.Bytes())
	f := recs[1].Frame
	if len(f.Raw) != 2+50 || f.Size != 102 || f.Raw[len(f.Raw)-1] != 'y' {
		t.Errorf("crossing chunk: %d bytes kept, size %d", len(f.Raw), f.Size)
	}
}

// waitFor polls path until it contains want; the deadline only guards
// against a hang.
func waitFor(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for {
		if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(want)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never reached the file within %s", want, guard.Hang)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A control message wakes the file writer: it reaches the file without
// the timer (here an hour).
func TestControlMessagesWakeTheFileWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r"+Ext)
	w, err := Create(path, Header{}, Options{flushEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Append(&capture.Frame{Dir: capture.Out, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")})
	waitFor(t, path, `\"method\":\"ping\"`)
}

// Anything else reaches the file on the timer.
func TestOtherFramesReachTheFileOnTheTimer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r"+Ext)
	w, err := Create(path, Header{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("log line\n"), Enc: proto.EncText})
	waitFor(t, path, "log line")
}

// failAfter accepts n bytes, then fails like a full disk.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("no space left on device")
	}
	f.n -= len(p)
	return len(p), nil
}

// A full disk stops the recording, never the session: Append keeps
// returning, Err says why.
func TestWriteErrorStopsTheRecordingOnly(t *testing.T) {
	w, err := NewWriter(&failAfter{n: 600}, Header{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		w.Append(&capture.Frame{Dir: capture.In, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message"}` + "\n")})
	}
	if err := w.Close(); !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("Close: %v", err)
	}
}

// A file that takes not even the header (--record /dev/full) stops the
// recording, not its start: NewWriter returns a Writer whose Err says
// why, and Stopped is told once, when it happens.
func TestFullDiskBeforeTheHeaderStopsTheRecordingOnly(t *testing.T) {
	for _, room := range []int{0, 600} {
		var mu sync.Mutex
		var told []error
		w, err := NewWriter(&failAfter{n: room}, Header{}, Options{Stopped: func(err error) { mu.Lock(); told = append(told, err); mu.Unlock() }})
		if err != nil {
			t.Fatalf("room %d: NewWriter: %v", room, err)
		}
		for range 100 {
			w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message"}` + "\n")})
		}
		err = w.Close()
		if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "no space left") || !errors.Is(w.Err(), ErrStopped) {
			t.Errorf("room %d: Close %v, Err %v", room, err, w.Err())
		}
		mu.Lock() // Stopped runs on the file writer's goroutine, after its locks
		if len(told) != 1 || told[0].Error() != err.Error() {
			t.Errorf("room %d: Stopped was told %v", room, told)
		}
		mu.Unlock()
	}
}

// Appends from many goroutines never interleave lines.
func TestConcurrentAppendsKeepWholeLines(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := capture.StreamKey{Conn: "wt", ReqID: uint32(g), Tag: 1}
			for i := range 200 {
				if i%2 == 0 {
					w.Append(chunk(key, 'z', 64))
				} else {
					w.Append(&capture.Frame{Dir: capture.In, Raw: []byte(`{"jsonrpc":"2.0","method":"x"}`)})
				}
			}
			w.MarkStream(key, capture.StreamDone, nil)
		}()
	}
	wg.Wait()
	_ = w.Close()
	_, recs, err := readAll(t, buf.Bytes())
	if err != nil || len(recs) != 8*200+8+1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
}

// However many streams pass their cap, at most maxTails keep a tail, and
// the table of followed streams stays within maxStreamCaps.
func TestStreamTableIsBounded(t *testing.T) {
	w, _ := NewWriter(io.Discard, Header{}, Options{StreamMax: 1})
	for i := range maxStreamCaps + 100 {
		w.Append(chunk(capture.StreamKey{Conn: "wt", ReqID: uint32(i), Tag: 1}, 'x', 4))
	}
	for i := range 200 {
		w.Append(chunk(capture.StreamKey{Conn: "wt", ReqID: uint32(i), Tag: 1}, 'x', 4))
	}
	w.mu.Lock()
	n, tails := len(w.caps.recs), w.caps.tails
	w.mu.Unlock()
	if n > maxStreamCaps || tails > maxTails {
		t.Errorf("%d streams followed, %d tails", n, tails)
	}
	_ = w.Close()
}

// A form value that only looks masked ("<redacted N bytes>" then anything
// but the mask's own stars) is masked whole, spaces and all.
func TestRedactionMasksALookalikeFormField(t *testing.T) {
	for _, secret := range []string{"<redacted 30 bytes>topsecret-value-1", "<redacted 999 bytes>**", "<redacted x bytes>topsecret-value-1"} {
		got := string(Redact([]byte("client_id=app&client_secret=" + secret + "&scope=read")))
		if strings.Contains(got, "topsecret") || !strings.Contains(got, "client_id=app&client_secret=<redacted ") || !strings.HasSuffix(got, "&scope=read") {
			t.Errorf("%q → %q", secret, got)
		}
	}
}

// Stopped is told outside the Writer's locks: one that closes the Writer
// returns, and Append goes on while another still runs.
func TestStoppedIsToldOutsideTheLocks(t *testing.T) {
	closed := make(chan error, 1)
	var w *Writer
	ready := make(chan struct{})
	w, _ = NewWriter(&failAfter{n: 600}, Header{}, Options{Stopped: func(error) {
		<-ready
		closed <- w.Close()
	}})
	close(ready)
	msg := []byte(`{"jsonrpc":"2.0","method":"notifications/message"}` + "\n")
	for range 100 {
		w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: msg})
	}
	select {
	case err := <-closed:
		if !errors.Is(err, ErrStopped) {
			t.Errorf("Close from Stopped: %v", err)
		}
	case <-time.After(guard.Hang):
		t.Fatalf("Close called from Stopped did not return within %s", guard.Hang)
	}
	if w.Empty() {
		t.Error("Empty, though the header was written")
	}
}

// A file that takes not even the header is Empty: it is not a recording.
func TestAFileThatTookNoHeaderIsEmpty(t *testing.T) {
	w, _ := NewWriter(&failAfter{n: 10}, Header{}, Options{})
	_ = w.Close()
	if !w.Empty() {
		t.Error("not Empty, though the header was cut short")
	}
}

// A line that cannot be encoded is left out, the rest of the recording
// is kept, and Close says how many lines were lost and why.
func TestUnencodableLineIsCountedNotSilent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r"+Ext)
	w, err := Create(path, Header{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	w.writeLocked(math.NaN())
	w.mu.Unlock()
	w.Append(&capture.Frame{Dir: capture.Out, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")})
	err = w.Close()
	if err == nil || !strings.Contains(err.Error(), "1 line of the recording could not be encoded and was left out") {
		t.Fatalf("Close = %v, want it to name the line left out", err)
	}
	b, rerr := os.ReadFile(path)
	if rerr != nil || !strings.Contains(string(b), `\"method\":\"ping\"`) {
		t.Fatalf("the ping after the lost line is not in the recording (%v):\n%s", rerr, b)
	}
}
