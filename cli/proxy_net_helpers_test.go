package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/recordings"
)

// netProxyStderr is a stderr the test reads while the command runs.
type netProxyStderr struct {
	mu  sync.Mutex
	buf bytes.Buffer
	got chan struct{} // signalled on every write
}

func (w *netProxyStderr) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.got <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *netProxyStderr) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// netProxy is `mcpscope proxy` running in this process for a test.
type netProxy struct {
	stderr *netProxyStderr
	stop   context.CancelFunc
	done   chan result
	record string
}

// startNetProxy runs `mcpscope proxy --record FILE args…` in this process
// and waits (guard.Hang at most) until its stderr matches want; it
// returns the proxy and want's submatches. The test's cleanup stops it.
func startNetProxy(t *testing.T, want *regexp.Regexp, args ...string) (*netProxy, []string) {
	t.Helper()
	p := &netProxy{stderr: &netProxyStderr{got: make(chan struct{}, 1)}, done: make(chan result, 1),
		record: filepath.Join(t.TempDir(), "proxy.jsonl")}
	ctx, cancel := context.WithCancel(context.Background())
	p.stop = cancel
	args = append([]string{"proxy", "--record", p.record}, args...)
	go func() {
		var out bytes.Buffer
		code := Execute(ctx, args, strings.NewReader(""), &out, p.stderr)
		p.done <- result{code: code, stdout: out.String(), stderr: p.stderr.String()}
	}()
	t.Cleanup(func() { p.finish(t) })
	timer := time.NewTimer(guard.Hang)
	defer timer.Stop()
	for {
		if m := want.FindStringSubmatch(p.stderr.String()); m != nil {
			return p, m[1:]
		}
		select {
		case <-p.stderr.got:
		case r := <-p.done:
			p.done <- r
			t.Fatalf("the proxy ended before it listened: exit %d\n%s", r.code, r.stderr)
		case <-timer.C:
			t.Fatalf("the proxy did not say %v within %s; it wrote:\n%s", want, guard.Hang, p.stderr.String())
		}
	}
}

// finish stops the proxy (once) and returns how it ended.
func (p *netProxy) finish(t *testing.T) result {
	t.Helper()
	p.stop()
	timer := time.NewTimer(guard.Hang)
	defer timer.Stop()
	select {
	case r := <-p.done:
		p.done <- r
		return r
	case <-timer.C:
		t.Fatalf("the proxy was still running %s after it was stopped:\n%s", guard.Hang, p.stderr.String())
		return result{}
	}
}

// frames reads the frames of the proxy's recording.
func (p *netProxy) frames(t *testing.T) []*capture.Frame {
	t.Helper()
	rd, err := recordings.Open(p.record)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []*capture.Frame
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("reading the recording: %v", err)
		}
		if rec.Frame != nil {
			out = append(out, rec.Frame)
		}
	}
}
