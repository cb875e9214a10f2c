package httprelay

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// proxied is a relay a test started in front of a server.
type proxied struct {
	URL  string // the local URL a host uses
	Sess *proxy.Session
	Rec  string // the recording's path
	stop func()
}

// startRelay runs a relay on 127.0.0.1:0 in front of upstream, recording
// to a file of the test's own; the test's cleanup stops it and closes the
// session.
func startRelay(t testing.TB, upstream string, opt Options) *proxied {
	t.Helper()
	return startRelayTLS(t, upstream, opt, TLS{})
}

// startRelayTLS is startRelay trusting the server as tls says.
func startRelayTLS(t testing.TB, upstream string, opt Options, tls TLS) *proxied {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "proxy.jsonl")
	sess, err := proxy.Open(proxy.Options{Name: "test", Target: upstream, Transport: "http", Record: rec,
		Redact: recordings.Options{NoRedact: opt.NoRedact}, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	up, err := ParseUpstream(upstream)
	if err != nil {
		t.Fatal(err)
	}
	client, err := NewClient(up, tls)
	if err != nil {
		t.Fatal(err)
	}
	opt.Session, opt.Upstream, opt.Client = sess, up, client
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Serve(ctx, ln) }()
	p := &proxied{URL: r.LocalURL(ln.Addr()), Sess: sess, Rec: rec}
	var once sync.Once
	p.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("the relay ended with %v", err)
			}
			_ = sess.Close(nil)
		})
	}
	t.Cleanup(p.stop)
	return p
}

// frames stops the relay and reads its recording back.
func (p *proxied) frames(t *testing.T) []*capture.Frame {
	t.Helper()
	p.stop()
	store, _ := rectest.Replay(t, p.Rec)
	return store.Window(0, store.Len())
}

// messages are the recorded message frames going dir (the control
// channel), in order.
func messages(frames []*capture.Frame, dir capture.Dir) []*capture.Frame {
	var out []*capture.Frame
	for _, f := range frames {
		if f.Dir == dir && f.Chan.Kind == capture.Control {
			out = append(out, f)
		}
	}
	return out
}

// flush writes s and flushes it, as a server streaming events
// does.
func flush(w http.ResponseWriter, s string) {
	_, _ = w.Write([]byte(s))
	w.(http.Flusher).Flush()
}
