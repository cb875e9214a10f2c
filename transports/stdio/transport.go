package stdio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/procgroup"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/internal/conn"
)

// Transport runs an MCP server as a child process and exchanges
// newline-delimited JSON-RPC with it. It implements client.Transport.
type Transport struct {
	cfg  Config
	tail *stderrTail

	life *conn.Lifecycle

	proc   *os.Process
	stdin  *os.File
	stdout *os.File
	stderr *os.File

	wslot chan struct{} // one writer at a time; a channel so a waiting Send can give up
	give  func()        // giveTurn, made once
	turns atomic.Uint64 // writes that ended, for answers waiting their turn (turn.go)
	out   conn.Writer   // keeps the rest of a line cut short by a cancelled Send, written first next time

	exited     chan struct{} // the process was reaped; state and waitErr are set
	state      *os.ProcessState
	waitErr    error
	stdoutDone chan struct{} // the stdout reader ended; readErr is set
	readErr    error
	stderrDone chan struct{}

	stopOnce sync.Once
}

var _ client.Transport = (*Transport)(nil)

// New returns a stdio transport for cfg. Nothing runs until Start.
func New(cfg Config) *Transport {
	cfg = cfg.withDefaults()
	t := &Transport{
		cfg:        cfg,
		tail:       newStderrTail(cfg.StderrTail),
		life:       conn.NewLifecycle("stdio", "the server is gone"),
		out:        conn.Writer{Unit: "line", Next: "message", Dest: "the server's stdin"},
		wslot:      make(chan struct{}, 1),
		exited:     make(chan struct{}),
		stdoutDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	t.give = t.giveTurn
	return t
}

// Start spawns the server in its own process group and starts reading its
// stdout and stderr. Messages go to deliver, in order, from one goroutine;
// deliver must not block and must not call Close. ctx only bounds the start;
// the server outlives it until Close.
func (t *Transport) Start(ctx context.Context, deliver func(*jsonrpc.Message)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("starting the server was cancelled: %w", err)
	}
	if deliver == nil {
		deliver = func(*jsonrpc.Message) {}
	}
	return t.life.Start(func() error {
		if t.cfg.Command == "" {
			return errors.New("cannot start the server: no command was given")
		}
		cmd, err := t.spawn()
		if err != nil {
			return err
		}
		t.proc = cmd.Process
		go t.wait(cmd)
		go t.readStdout(conn.NewPipeReader(t.stdout), deliver)
		go t.readStderr(t.stderr)
		go t.supervise()
		return nil
	})
}

// spawn starts the process with fresh pipes and keeps the parent's ends.
func (t *Transport) spawn() (*exec.Cmd, error) {
	cmd := exec.Command(t.cfg.Command, t.cfg.Args...)
	if errors.Is(cmd.Err, exec.ErrNotFound) {
		return nil, fmt.Errorf("cannot start the server: command %q was not found in PATH: %w", t.cfg.Command, cmd.Err)
	}
	cmd.Env = t.cfg.environ()
	cmd.Dir = t.cfg.Dir
	procgroup.Own(cmd)
	pipes, err := procgroup.StartPiped(cmd)
	var pipeErr *procgroup.PipeError
	if errors.As(err, &pipeErr) {
		return nil, fmt.Errorf("cannot start the server: creating pipes: %w", pipeErr.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot start the server %q: %w", t.cfg.Command, err)
	}
	t.stdin, t.stdout, t.stderr = pipes.Stdin, pipes.Stdout, pipes.Stderr
	return cmd, nil
}

// wait reaps the process.
func (t *Transport) wait(cmd *exec.Cmd) {
	err := cmd.Wait()
	t.state = cmd.ProcessState
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.waitErr = err
	}
	close(t.exited)
}

// readStdout reports every stdout line and delivers the messages it holds.
func (t *Transport) readStdout(r io.Reader, deliver func(*jsonrpc.Message)) {
	defer close(t.stdoutDone)
	lr := newLineReader(r, t.cfg.MaxFrameSize, keptHead)
	for {
		ln, err := lr.next()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				t.readErr = fmt.Errorf("reading the server's stdout: %w", err)
			}
			return
		}
		read := time.Now() // the frame's time is its arrival, not the end of its decoding
		f, msgs := classifyStdout(ln, t.cfg.MaxFrameSize)
		if f == nil {
			continue
		}
		t.reportAt(capture.In, f, read)
		for _, m := range msgs {
			deliver(m)
		}
	}
}

// report stamps f and hands it to the sink.
func (t *Transport) report(dir capture.Dir, f *capture.Frame) {
	t.reportAt(dir, f, time.Now())
}

// reportAt stamps f with the time at and hands it to the sink.
func (t *Transport) reportAt(dir capture.Dir, f *capture.Frame, at time.Time) {
	f.Time = at
	f.Dir = dir
	f.Conn = t.cfg.Conn
	t.cfg.Sink.Append(f)
}

// Done is closed when the connection has gone: after Close, or once the
// server exited and its output was drained. No message is delivered after.
func (t *Transport) Done() <-chan struct{} { return t.life.Done() }

// Err says why the connection went: nil while it is open and after a clean
// Close, otherwise an *ExitError.
func (t *Transport) Err() error { return t.life.Err() }

// Describe declares nothing: stdio is standard MCP in JSON.
func (t *Transport) Describe() client.Traits { return client.Traits{} }
