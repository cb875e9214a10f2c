package doctor

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// stdio walks a command target: the command found, started, writing only
// JSON-RPC on stdout, then the session.
func (w *walk) stdio() {
	argv := w.cfg.Argv
	w.step("target", func(context.Context) (string, error) {
		if len(argv) == 0 || argv[0] == "" {
			return "", fail(checklist.Usage, "give the server's command after --, as in -- npx my-server", "the target has no command")
		}
		return "stdio " + strings.Join(argv, " "), nil
	})
	w.step("command", func(context.Context) (string, error) {
		path, err := exec.LookPath(argv[0])
		if err != nil {
			return "", fail(checklist.Connection, "install the server, or give its full path (is it on PATH?)", "the command %q is not found: %w", argv[0], err)
		}
		return path, nil
	})
	w.session()
}

// startWatch tells when the transport under the session has started.
type startWatch struct {
	client.Transport
	once    sync.Once
	started chan struct{}
	err     error
}

func newStartWatch(t client.Transport) *startWatch {
	return &startWatch{Transport: t, started: make(chan struct{})}
}

// Start starts the transport and tells the watcher.
func (s *startWatch) Start(ctx context.Context, deliver func(*jsonrpc.Message)) error {
	err := s.Transport.Start(ctx, deliver)
	s.ended(err)
	return err
}

// ended tells the watcher, once, that the start is over, with err.
func (s *startWatch) ended(err error) {
	s.once.Do(func() { s.err = err; close(s.started) })
}

// startAndStdout runs the start and stdout steps of a command while the
// session connects in the background, and returns the handshake step's
// connect: the background Connect's result, timed as it ran.
func (w *walk) startAndStdout(s *client.Session, watch *startWatch, junk *junkWatch) func(context.Context) error {
	connected := w.connectAsync(s, watch)
	w.startStep(watch)
	var connect connectResult
	w.step("stdout", func(ctx context.Context) (string, error) {
		select {
		case connect = <-connected:
		case <-junk.found:
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
		if j := junk.seen(); j != nil {
			return "", fail(checklist.Protocol, "make the server write its logs to stderr: stdout carries only JSON-RPC", "%w", j)
		}
		return "nothing but JSON-RPC until the handshake ended", nil
	})
	return func(context.Context) error {
		w.took = connect.took
		return connect.err
	}
}

// connectAsync runs Connect in the background, bounded by --timeout, so
// that the start step can end when the process is up.
func (w *walk) connectAsync(s *client.Session, watch *startWatch) <-chan connectResult {
	done := make(chan connectResult, 1)
	go func() {
		ctx, cancel := context.WithTimeoutCause(w.ctx, w.cfg.Timeout, errDeadline)
		defer cancel()
		start := time.Now()
		err := s.Connect(ctx)
		watch.ended(err)
		done <- connectResult{err: err, took: time.Since(start)}
	}()
	return done
}

// connectResult is how a background Connect ended, and how long it took.
type connectResult struct {
	err  error
	took time.Duration
}

// startStep waits until the process has started (or failed to).
func (w *walk) startStep(watch *startWatch) {
	w.step("start", func(ctx context.Context) (string, error) {
		select {
		case <-watch.started:
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
		if watch.err != nil {
			var conn *client.ConnectionError
			if errors.As(watch.err, &conn) || !errors.As(watch.err, new(*client.TimeoutError)) {
				return "", fail(checklist.Connection, "check that the command can run (permissions, interpreter, arguments)", "the server did not start: %w", watch.err)
			}
			return "", watch.err
		}
		return fmt.Sprintf("%s is running", w.cfg.Argv[0]), nil
	})
}
