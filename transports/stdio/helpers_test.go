//go:build unix

package stdio

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// hangGuard bounds every wait in these tests; it is not a timing assertion.
const hangGuard = guard.Hang

// recorder is a Sink that keeps every frame.
type recorder struct {
	mu     sync.Mutex
	frames []*capture.Frame
	added  chan struct{}
}

func newRecorder() *recorder { return &recorder{added: make(chan struct{}, 1)} }

func (r *recorder) Append(f *capture.Frame) uint64 {
	r.mu.Lock()
	r.frames = append(r.frames, f)
	n := uint64(len(r.frames))
	r.mu.Unlock()
	select {
	case r.added <- struct{}{}:
	default:
	}
	return n
}

// all returns the frames recorded so far that match keep.
func (r *recorder) all(keep func(*capture.Frame) bool) []*capture.Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*capture.Frame
	for _, f := range r.frames {
		if keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// waitFor returns the first frame matching keep, waiting for it to arrive.
func (r *recorder) waitFor(t *testing.T, what string, keep func(*capture.Frame) bool) *capture.Frame {
	t.Helper()
	guard := time.After(hangGuard)
	for {
		if got := r.all(keep); len(got) > 0 {
			return got[0]
		}
		select {
		case <-r.added:
		case <-guard:
			t.Fatalf("no %s frame arrived", what)
		}
	}
}

// startFake starts this test binary as a fake server in mode.
func startFake(t *testing.T, mode string, adjust func(*Config)) (*Transport, *recorder, chan *jsonrpc.Message) {
	t.Helper()
	exe, args := fakeArgv(t)
	rec := newRecorder()
	// A race-enabled binary sleeps a second on exit unless told not to.
	env := []string{fakeEnv + "=" + mode, "GORACE=atexit_sleep_ms=0"}
	cfg := Config{Command: exe, Args: args, Env: env, Sink: rec, ShutdownGrace: 200 * time.Millisecond}
	if adjust != nil {
		adjust(&cfg)
	}
	tr := New(cfg)
	inbox := make(chan *jsonrpc.Message, 1<<14)
	if err := tr.Start(context.Background(), func(m *jsonrpc.Message) { inbox <- m }); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, rec, inbox
}

// request builds a request or fails the test.
func request(t testing.TB, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatalf("building %s: %v", method, err)
	}
	return m
}

// send sends m or fails the test.
func send(t testing.TB, tr *Transport, m *jsonrpc.Message) {
	t.Helper()
	if err := tr.Send(context.Background(), m); err != nil {
		t.Fatalf("Send %s: %v", m.Method, err)
	}
}

// recv waits for the next delivered message.
func recv(t testing.TB, inbox <-chan *jsonrpc.Message) *jsonrpc.Message {
	t.Helper()
	select {
	case m := <-inbox:
		return m
	case <-time.After(hangGuard):
		t.Fatalf("no message was delivered within %s", hangGuard)
		return nil
	}
}

// waitDone waits for the transport to end.
func waitDone(t testing.TB, tr *Transport) {
	t.Helper()
	select {
	case <-tr.Done():
	case <-time.After(hangGuard):
		t.Fatalf("Done never closed within %s", hangGuard)
	}
}

func isDir(dir capture.Dir, kind capture.ChannelKind) func(*capture.Frame) bool {
	return func(f *capture.Frame) bool { return f.Dir == dir && f.Chan.Kind == kind }
}
