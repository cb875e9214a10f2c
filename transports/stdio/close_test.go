//go:build unix

package stdio

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/internal/conn"
)

func TestCloseIsCleanAndIdempotent(t *testing.T) {
	tr, _, inbox := startFake(t, "echo", nil)
	send(t, tr, request(t, 1, "ping", nil))
	recv(t, inbox)
	if err := tr.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	waitDone(t, tr)
	if tr.Err() != nil {
		t.Fatalf("Err after a clean Close = %v", tr.Err())
	}
	if err := tr.Close(); err != nil || tr.Err() != nil {
		t.Fatalf("second Close = %v, Err = %v", err, tr.Err())
	}
}

func TestCloseWhileSending(t *testing.T) {
	tr, _, _ := startFake(t, "echo", nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				err := tr.Send(context.Background(), request(t, int64(g*1_000_000+i), "ping", nil))
				var conn *client.ConnectionError
				switch {
				case err == nil:
				case errors.Is(err, client.ErrClosed), errors.As(err, &conn):
					return
				default:
					t.Errorf("Send during Close = %v", err)
					return
				}
			}
		})
	}
	time.Sleep(50 * time.Millisecond) // let the senders get going; not an assertion
	var closers sync.WaitGroup
	for range 3 {
		closers.Go(func() {
			if err := tr.Close(); err != nil {
				t.Errorf("Close = %v", err)
			}
		})
	}
	closers.Wait()
	wg.Wait()
	if tr.Err() != nil {
		t.Fatalf("Err after Close = %v", tr.Err())
	}
}

func TestCloseEscalatesToKillingTheGroup(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "alive")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		f, err := os.Open(fifo) // blocks until the server opens it for writing
		if err != nil {
			return
		}
		io.Copy(io.Discard, f) // EOF once every holder is dead
		f.Close()
	}()
	tr, _, inbox := startFake(t, "ignore-stdin-close", func(c *Config) {
		c.Env = append(c.Env, fifoEnv+"="+fifo)
	})
	ready := recv(t, inbox)
	var p struct{ PID, Child int }
	if ready.Method != "ready" || json.Unmarshal(ready.Params, &p) != nil || p.Child == 0 {
		t.Fatalf("ready = %s", ready.Raw)
	}
	if err := tr.Close(); err != nil || tr.Err() != nil {
		t.Fatalf("Close = %v, Err = %v", err, tr.Err())
	}
	select {
	case <-gone:
	case <-time.After(hangGuard):
		t.Fatalf("the server (pid %d) or its child (pid %d) survived Close", p.PID, p.Child)
	}
	if err := syscall.Kill(p.PID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server pid %d still exists: %v", p.PID, err)
	}
}

func TestCancelledSendKeepsFramingIntact(t *testing.T) {
	tr, rec, inbox := startFake(t, "deaf", nil)
	ready := recv(t, inbox)
	var p struct{ PID int }
	json.Unmarshal(ready.Params, &p)

	// The server does not read stdin, so a 4 MiB line cannot fit in the pipe.
	// Raw is set so that Send does not spend the deadline encoding 4 MiB.
	big := &jsonrpc.Message{Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"pad":"` + strings.Repeat("b", 4<<20) + `"}}`)}
	ctx, cancel := context.WithCancel(context.Background())
	defer time.AfterFunc(time.Second, cancel).Stop()
	err := tr.Send(ctx, big)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Send to a deaf server = %v, want a cancellation", err)
	}
	// The line is recorded once, before the write, and a second frame says
	// that it was not sent whole.
	if f := rec.all(func(f *capture.Frame) bool { return f.Msg == big }); len(f) != 1 {
		t.Fatalf("frames of the cancelled line = %+v (Send: %v)", f, err)
	}
	if f := rec.all(func(f *capture.Frame) bool {
		return f.Dir == capture.Out && f.Err != nil && strings.Contains(f.Err.Error(), "not sent whole")
	}); len(f) != 1 {
		t.Fatalf("no frame says the cancelled line was cut short (Send: %v)", err)
	}

	syscall.Kill(p.PID, syscall.SIGUSR1) // the server starts reading now
	send(t, tr, request(t, 2, "echo", map[string]int{"n": 2}))
	ids := map[int64]bool{}
	for range 2 {
		m := recv(t, inbox)
		id, _ := m.ID.Int()
		ids[id] = true
	}
	if !ids[1] || !ids[2] || tr.Err() != nil {
		t.Fatalf("answers for %v, Err = %v; want both lines intact", ids, tr.Err())
	}
}

// A line whose deadline passes before it is whole means the server stopped
// reading: the rest could never go out first, so every later Send fails at
// once, naming that, instead of waiting behind it; the connection itself
// (the server's stdout) stays up.
func TestDeadlineCutLineStallsLaterSends(t *testing.T) {
	tr, rec, inbox := startFake(t, "deaf", nil)
	recv(t, inbox) // ready
	big := &jsonrpc.Message{Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"pad":"` + strings.Repeat("b", 4<<20) + `"}}`)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := tr.Send(ctx, big)
	if !errors.Is(err, client.ErrStoppedReading) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Send to a deaf server = %v, want the server stopped reading", err)
	}
	var stall *conn.StalledError
	if !errors.As(err, &stall) || stall.Sent <= 0 || stall.Sent >= stall.Size {
		t.Fatalf("Send = %v, want a StalledError with part of the line sent", err)
	}
	// The cancellation of the request must not wait behind the cut line:
	// it fails at once, well within the bound of the test's own wait.
	bound, stop := context.WithTimeout(context.Background(), hangGuard)
	defer stop()
	cancelled, _ := jsonrpc.NewNotification(mcp.MethodNotifyCancelled, mcp.CancelledNotificationParams{RequestID: jsonrpc.IntID(1)})
	err = tr.Send(bound, cancelled)
	if !errors.Is(err, client.ErrStoppedReading) || bound.Err() != nil {
		t.Fatalf("Send after the stall = %v (bound: %v), want it to fail at once naming the stall", err, bound.Err())
	}
	want := "cannot send the notification notifications/cancelled: the server stopped reading: only "
	if !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Send after the stall = %q, want it to start %q", err, want)
	}
	if f := rec.all(func(f *capture.Frame) bool { return f.Msg == cancelled }); len(f) != 0 {
		t.Fatalf("the unsent cancellation was recorded as sent: %+v", f)
	}
	if tr.Err() != nil {
		t.Fatalf("Err = %v; the connection should still be up for reading", tr.Err())
	}
}
