package live

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// firstFrame appends f to s and returns the frame viewer v gets for it.
func firstFrame(t *testing.T, s *proxy.Session, v *Viewer, f *capture.Frame) capture.Frame {
	t.Helper()
	s.Tap().Append(f)
	sub, cancel := v.Store().Subscribe()
	defer cancel()
	eventually(t, "the frame", sub, func() bool { return v.Store().Len() > 0 })
	return *v.Store().Window(0, 1)[0]
}

// A viewer gets an SSE event's annotations masked as its bytes are: the
// "data" line's value holds the event's JSON, credentials and all.
func TestLiveViewersSeeSSEDataAnnotationMasked(t *testing.T) {
	s, err := proxy.Open(proxy.Options{Name: "ssecreds", NoRecord: true, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(nil)
	v := dial(t, serve(t, s))
	raw := []byte("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"access_token\":\"S3KRETVALUE\"}}\n\n")
	f := firstFrame(t, s, v, &capture.Frame{Dir: capture.In, Conn: "http POST 1", Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Enc: proto.EncText, Fields: httphead.SSEEventFields(raw)})
	if strings.Contains(string(f.Raw), "S3KRETVALUE") {
		t.Errorf("the viewer got %q", f.Raw)
	}
	data := false
	for _, fd := range f.Fields {
		data = data || fd.Name == "data"
		if strings.Contains(fd.Value, "S3KRETVALUE") {
			t.Errorf("the viewer's annotation %q = %q", fd.Name, fd.Value)
		}
	}
	if !data {
		t.Errorf("the viewer got no data annotation: %+v", f.Fields)
	}
}

// A viewer gets the --header values (the session's literal secrets)
// masked wherever they appear, as the recording masks them.
func TestLiveViewersSeeHeaderValuesMasked(t *testing.T) {
	s, err := proxy.Open(proxy.Options{Name: "litcreds", NoRecord: true, Log: t.Logf,
		Redact: recordings.Options{Secrets: []string{"LITERALSEKRET"}, SecretHeaders: []string{"X-Mcp-Key"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(nil)
	v := dial(t, serve(t, s))
	raw := "401: bad token LITERALSEKRET\r\nX-Mcp-Key: other-value\r\n"
	f := firstFrame(t, s, v, &capture.Frame{Dir: capture.In, Conn: "http POST 1", Chan: capture.Channel{Kind: capture.HTTP}, Raw: []byte(raw), Enc: proto.EncText})
	if got := string(f.Raw); strings.Contains(got, "LITERALSEKRET") || strings.Contains(got, "other-value") || len(got) != len(raw) {
		t.Errorf("the viewer got %q", got)
	}
}

// holdLogin pauses a login whose params are body's and returns what the
// viewer is shown of it, the carrier the session relays with, and a
// channel closed once the message went on.
func holdLogin(t *testing.T, name, body string) (*Viewer, proxy.Held, *carrier, chan struct{}) {
	t.Helper()
	s := openSession(t, name, capture.Config{}, time.Time{})
	v := dial(t, serve(t, s))
	if err := v.PauseOn([]proxy.Filter{{Method: "login"}}); err != nil {
		t.Fatal(err)
	}
	c := &carrier{}
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		relay(t, s, c, capture.Out, body)
	}()
	eventually(t, "the login to be held", nil, func() bool { return len(v.Held()) == 1 })
	return v, v.Held()[0], c, relayed
}

// Deleting one of two masked credentials of the same length leaves the
// other in its own place: each mask stands for its own credential.
func TestLiveHeldEditKeepsEachCredentialInItsPlace(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"login","params":{"password":"AAAAAAAAAAAAAAAAAAAAAAAA","client_secret":"BBBBBBBBBBBBBBBBBBBBBBBB"}}`
	v, held, c, relayed := holdLogin(t, "heldswap", body)
	shown := string(held.Body)
	i, j := strings.Index(shown, `"password"`), strings.Index(shown, `"client_secret"`)
	if i < 0 || j < i || strings.Contains(shown, "AAAA") || strings.Contains(shown, "BBBB") {
		t.Fatalf("the viewer was shown %s", shown)
	}
	edited := shown[:i] + shown[j:] // the password member deleted
	if err := v.Decide(held.N, proxy.Decision{Body: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	<-relayed
	c.mu.Lock()
	defer c.mu.Unlock()
	want := `{"jsonrpc":"2.0","id":1,"method":"login","params":{"client_secret":"BBBBBBBBBBBBBBBBBBBBBBBB"}}`
	if len(c.sent) != 1 || string(c.sent[0]) != want {
		t.Errorf("the server got %q, want %s", c.sent, want)
	}
}

// An edit that holds one mask twice, or a mask that stands for no
// credential of the message, is refused with words that say why; the
// message stays held.
func TestLiveHeldEditWithAmbiguousMaskRefused(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"login","params":{"password":"AAAAAAAAAAAAAAAAAAAAAAAA","client_secret":"BBBBBBBBBBBBBBBBBBBBBBBB"}}`
	v, held, c, relayed := holdLogin(t, "heldtwice", body)
	shown := string(held.Body)
	first := shown[strings.Index(shown, "[redacted"):]
	first = first[:strings.Index(first, "]")+1]
	twice := strings.Replace(shown, `"login"`, `"`+first+`"`, 1)
	if err := v.Decide(held.N, proxy.Decision{Body: []byte(twice)}); err == nil || !strings.Contains(err.Error(), "more than once") {
		t.Errorf("an edit with %s twice: %v", first, err)
	}
	stray := strings.Replace(shown, `"login"`, `"[redacted 24 bytes #9]"`, 1)
	if err := v.Decide(held.N, proxy.Decision{Body: []byte(stray)}); err == nil || !strings.Contains(err.Error(), "masks no credential") {
		t.Errorf("an edit with a mask of no credential: %v", err)
	}
	if len(v.Held()) != 1 {
		t.Fatalf("the login is no longer held: %+v", v.Held())
	}
	if err := v.Decide(held.N, proxy.Decision{Body: held.Body}); err != nil {
		t.Fatal(err)
	}
	<-relayed
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.sent)+len(c.passed) != 1 || len(c.sent) == 1 && string(c.sent[0]) != body {
		t.Errorf("the server got %q / %q, want %s", c.sent, c.passed, body)
	}
}
