package live

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// A viewer learns how streams and SSE streams ended, their labels and
// announced sizes, as the session's store holds them.
func TestLiveStreamAndSSEStatesReachViewers(t *testing.T) {
	s := openSession(t, "streams", capture.Config{}, time.Time{})
	h := serve(t, s)
	v := dial(t, h)
	key := capture.StreamKey{Conn: "wt", ReqID: 7, Tag: 1}
	tap := s.Tap()
	tap.Append(&capture.Frame{Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 7, Tag: 1}, Raw: []byte("payload"), Enc: proto.EncBinary})
	tap.Note(capture.StreamLabelled{Key: key, Label: capture.StreamLabel{Text: "audio/pcm"}})
	tap.Note(capture.StreamSized{Key: key, Size: 100})
	tap.Note(capture.StreamMarked{Key: key, State: capture.StreamReset, Err: errors.New("cancelled")})
	tap.Note(capture.SSEOpened{Conn: "http POST 1", Start: capture.SSEStart{Kind: capture.SSEAnswer, Method: "tools/call"}})
	tap.Note(capture.SSEEnded{Conn: "http POST 1", State: capture.SSEBroken, Why: "the server went away"})
	sub, cancel := v.Store().Subscribe()
	defer cancel()
	eventually(t, "the stream's end and the SSE stream's", sub, func() bool {
		st, ok := v.Store().Stream(key)
		sse := v.Store().SSEStreams()
		return ok && st.State == capture.StreamReset && len(sse) == 1 && sse[0].State == capture.SSEBroken
	})
	st, _ := v.Store().Stream(key)
	if st.Label.Text != "audio/pcm" || st.Size != 100 || st.Err == nil || st.Err.Error() != "cancelled" {
		t.Errorf("the viewer's stream: %+v", st)
	}
	if sse := v.Store().SSEStreams()[0]; sse.Method != "tools/call" || sse.Why != "the server went away" || sse.Kind != capture.SSEAnswer {
		t.Errorf("the viewer's SSE stream: %+v", sse)
	}
}

// A viewer sees credentials masked, as the recording holds them, unless
// the proxy runs with --no-redact.
func TestLiveViewersSeeCredentialsMasked(t *testing.T) {
	head := "POST /mcp HTTP/1.1\r\nAuthorization: Bearer s3cr3t-t0ken-value\r\nCookie: session=c00kie-value\r\n\r\n"
	for _, noRedact := range []bool{false, true} {
		s, err := proxy.Open(proxy.Options{Name: "creds", NoRecord: true, Redact: recordings.Options{NoRedact: noRedact}, Log: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		h := serve(t, s)
		v := dial(t, h)
		s.Tap().Append(&capture.Frame{Dir: capture.Out, Conn: "http POST 1", Chan: capture.Channel{Kind: capture.HTTP}, Raw: []byte(head), Enc: proto.EncText})
		sub, cancel := v.Store().Subscribe()
		eventually(t, "the HTTP head", sub, func() bool { return v.Store().Len() > 0 })
		cancel()
		got := string(v.Store().Window(0, 1)[0].Raw)
		shown := strings.Contains(got, "s3cr3t-t0ken-value") || strings.Contains(got, "c00kie-value")
		if shown != noRedact {
			t.Errorf("no-redact %v: the viewer got %q", noRedact, got)
		}
		_ = s.Close(nil)
	}
}

// A paused message's credentials are masked for viewers too; an edit that
// keeps the masks carries the credentials on whole.
func TestLiveHeldMessagesShowCredentialsMasked(t *testing.T) {
	s := openSession(t, "heldcreds", capture.Config{}, time.Time{})
	h := serve(t, s)
	v := dial(t, h)
	if err := v.PauseOn([]proxy.Filter{{Method: "login"}}); err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"login","params":{"user":"ada","password":"hunter22-secret-value-long","api_key":"k3y-12345"}}`
	c := &carrier{}
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		relay(t, s, c, capture.Out, body)
	}()
	eventually(t, "the login to be held", nil, func() bool { return len(v.Held()) == 1 })
	held := v.Held()[0]
	if strings.Contains(string(held.Body), "hunter22") || strings.Contains(string(held.Body), "k3y-") {
		t.Errorf("the viewer was shown %s", held.Body)
	}
	edited := strings.Replace(string(held.Body), `"ada"`, `"grace"`, 1)
	if err := v.Decide(held.N, proxy.Decision{Body: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	<-relayed
	c.mu.Lock()
	defer c.mu.Unlock()
	if want := strings.Replace(body, `"ada"`, `"grace"`, 1); len(c.sent) != 1 || string(c.sent[0]) != want {
		t.Errorf("the server got %q, want %s", c.sent, want)
	}
}
