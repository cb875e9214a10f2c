// Package stdiorelay is the stdio proxy: it runs the server command and
// relays the host's standard input to the server's, line by line, and the
// server's standard output to the host's, through a proxy.Session. Bytes
// pass unchanged both ways; the server's standard error goes to the
// host's as it comes and is captured line by line.
package stdiorelay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/procgroup"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
)

// Defaults of Config.
const (
	DefaultMaxLine = 64 << 20        // a longer line is carried on whole and captured cut
	DefaultGrace   = 2 * time.Second // per step of close stdin → SIGTERM → SIGKILL
)

// Config says which server to run and where the host is.
type Config struct {
	// Argv is the server's command line; it runs with the proxy's
	// environment and working directory.
	Argv []string
	// HostIn, HostOut and HostErr are the host's ends: what the proxy
	// reads the host's messages from and writes the server's messages
	// and standard error to.
	HostIn           io.Reader
	HostOut, HostErr io.Writer
	// MaxLine is the longest line captured whole, delimiter included
	// (default DefaultMaxLine). A longer one is carried on whole as it is
	// read and captured cut, with a LineTooLongError.
	MaxLine int
	// Grace is the wait of each shutdown step (default DefaultGrace).
	Grace time.Duration
}

// Exit is how the server ended.
type Exit struct {
	Status int    // the exit code, or 128 + the signal's number
	Signal string // the signal that ended it ("SIGKILL"), or ""
}

// relay is one run of the server between the host and the session.
type relay struct {
	cfg  Config
	sess *proxy.Session
	proc *os.Process

	server   *lineWriter // the server's stdin
	host     *lineWriter // the host's stdout
	carriers map[capture.Dir]*carrier
	stdout   *os.File
	stderr   *os.File

	exited chan struct{} // the server was reaped; state is set
	state  *os.ProcessState

	hostGone chan struct{} // the host closed stdin, stopped reading, or a fault cut it
	goneOnce sync.Once
}

// Run starts the server and relays until it has exited and its output is
// carried on; ctx ending (the proxy was told to stop) stops the server's
// process group. The error says the server could not start; otherwise
// Exit says how it ended.
func Run(ctx context.Context, sess *proxy.Session, cfg Config) (Exit, error) {
	if len(cfg.Argv) == 0 {
		return Exit{}, errors.New("no server command")
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	r := &relay{cfg: cfg, sess: sess, exited: make(chan struct{}), hostGone: make(chan struct{})}
	r.carriers = map[capture.Dir]*carrier{capture.Out: {r: r}, capture.In: {r: r}}
	if err := r.start(); err != nil {
		return Exit{}, err
	}
	// The relays carry on until Run returns, whatever ctx does: the
	// server's last words still reach the host.
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	sess.SetInjector(func(ctx context.Context, body []byte) error {
		return r.server.writeBounded(ctx, jsonrpc.AppendLine(make([]byte, 0, len(body)+1), body))
	})
	defer sess.SetInjector(nil)
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(outDone); r.relayServer(rctx) }()
	go func() { defer close(errDone); r.copyStderr() }()
	go r.relayHost(rctx)
	r.supervise(ctx)
	r.drain(outDone, errDone)
	return Exit{Status: procgroup.ExitStatus(r.state), Signal: procgroup.ExitSignal(r.state)}, nil
}

// start runs the server in a process group of its own, tied to the
// proxy's life.
func (r *relay) start() error {
	argv := r.cfg.Argv
	cmd := exec.Command(argv[0], argv[1:]...)
	if errors.Is(cmd.Err, exec.ErrNotFound) {
		return fmt.Errorf("cannot start the server: command %q was not found in PATH: %w", argv[0], cmd.Err)
	}
	procgroup.Own(cmd)
	procgroup.Tie(cmd)
	pipes, err := procgroup.StartPiped(cmd)
	if err != nil {
		return fmt.Errorf("cannot start the server %q: %w", argv[0], err)
	}
	r.proc = cmd.Process
	r.server = newLineWriter(pipes.Stdin, "the server's stdin")
	r.host = newLineWriter(r.cfg.HostOut, "the host's stdout")
	r.stdout, r.stderr = pipes.Stdout, pipes.Stderr
	go func() {
		_ = cmd.Wait()
		r.state = cmd.ProcessState
		close(r.exited)
	}()
	return nil
}

// endHost says the host is gone (or cut off): the server's stdin closes,
// which asks it to exit.
func (r *relay) endHost() {
	r.goneOnce.Do(func() {
		close(r.hostGone)
		r.server.close(true)
	})
}

// supervise waits for the server to exit. When the host goes, the server
// has Grace to exit after its stdin closed, then its group gets SIGTERM
// and, Grace later, SIGKILL; when ctx ends, SIGTERM comes at once.
func (r *relay) supervise(ctx context.Context) {
	var step <-chan time.Time
	terminated := false
	escalate := func() {
		if !terminated {
			terminated = true
			_ = procgroup.Terminate(r.proc)
		} else {
			_ = procgroup.Kill(r.proc)
		}
		step = time.After(r.cfg.Grace)
	}
	hostGone, stop := r.hostGone, ctx.Done()
	for {
		select {
		case <-r.exited:
			return
		case <-hostGone:
			hostGone = nil
			if step == nil {
				step = time.After(r.cfg.Grace)
			}
		case <-stop:
			stop, hostGone = nil, nil
			r.endHost()
			escalate()
		case <-step:
			escalate()
		}
	}
}

// drain waits for the server's output to reach its end. A child of the
// server that still holds the pipes after Grace is killed with its group
// and the pipes are closed.
func (r *relay) drain(outDone, errDone <-chan struct{}) {
	timer := time.NewTimer(r.cfg.Grace)
	defer timer.Stop()
	for outDone != nil || errDone != nil {
		select {
		case <-outDone:
			outDone = nil
		case <-errDone:
			errDone = nil
		case <-timer.C:
			_ = procgroup.Kill(r.proc)
			r.stdout.Close()
			r.stderr.Close()
			// A reader still blocked now is blocked writing to a host that
			// does not read: it is left behind, not waited for.
			r.host.close(false)
			return
		}
	}
	r.stdout.Close()
	r.stderr.Close()
	r.server.close(true)
}

// relayServer carries the server's stdout to the host, line by line.
func (r *relay) relayServer(ctx context.Context) {
	defer r.carriers[capture.In].hold(false)
	lr := newLineReader(r.stdout, r.cfg.MaxLine)
	for {
		p, err := lr.next()
		if err != nil {
			return
		}
		// A host that stopped reading misses the rest; it is still captured.
		_ = r.carry(ctx, capture.In, lr, p)
	}
}

// relayHost carries the host's stdin to the server, line by line; at its
// end (or the server's) the host is gone.
func (r *relay) relayHost(ctx context.Context) {
	defer r.endHost()
	defer r.carriers[capture.Out].hold(false)
	lr := newLineReader(r.cfg.HostIn, r.cfg.MaxLine)
	for {
		p, err := lr.next()
		if err != nil {
			return
		}
		select {
		case <-r.hostGone: // cut: the rest of the host's lines go nowhere
			return
		default:
		}
		if err := r.carry(ctx, capture.Out, lr, p); err != nil && r.server.dead.Load() {
			return
		}
	}
}

// to is the writer toward dir's receiver.
func (r *relay) to(dir capture.Dir) *lineWriter {
	if dir == capture.Out {
		return r.server
	}
	return r.host
}

// carry hands one line to the session, or carries a line past MaxLine on
// as it is read.
func (r *relay) carry(ctx context.Context, dir capture.Dir, lr *lineReader, p piece) error {
	if p.long {
		return r.carryLong(ctx, dir, lr, p)
	}
	h := proxy.Hop{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: p.raw, Enc: proto.EncJSON}
	h.Fields = jsonrpc.LineFields(p.raw)
	h.Body = p.raw
	if k := len(h.Fields); k > 0 && h.Fields[k-1].Kind == proto.FieldDelimiter {
		h.Body = p.raw[:h.Fields[k-1].Offset]
	}
	c := r.carriers[dir]
	c.more.Store(lr.r.Buffered() > 0)
	c.hold(true)
	err := r.sess.Relay(ctx, h, c)
	if !c.more.Load() {
		// No line waits: what was held back goes now. A message Relay
		// kept, dropped or delayed may have left some. Then the
		// recording gets what was carried on, in one write.
		if ferr := r.to(dir).flush(ctx); err == nil {
			err = ferr
		}
		c.hold(false)
	}
	c.more.Store(false)
	if err != nil && dir == capture.In {
		r.endHost() // the host stopped reading
	}
	return err
}
