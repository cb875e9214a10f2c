package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// CommandTimeout bounds a command without a context of its own (PauseOn,
// Decide, SetFaults): the hub answers at once unless it is gone.
const CommandTimeout = 10 * time.Second

// ErrGone says a command found the live session gone.
var ErrGone = errors.New("the live session is gone")

// Viewer is a live session seen from another process: a store fed by the
// hub's stream, and the steering of the session through the hub. When the
// session ends or the proxy dies, Done closes and the store keeps every
// frame it got.
type Viewer struct {
	conn   io.ReadWriteCloser
	header recordings.Header
	store  *capture.Store
	done   chan struct{}
	missed atomic.Int64
	wmu    sync.Mutex // one command line at a time

	mu     sync.Mutex
	err    error
	bye    string
	closed bool
	state  hubState
	ref    uint64
	waits  map[uint64]chan hubLine
}

// Dial attaches to the live session whose socket is path; ctx bounds the
// wait for its header.
func Dial(ctx context.Context, path string) (*Viewer, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("attaching to the live session: %w", err)
	}
	v, err := attach(ctx, c, capture.Config{})
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return v, nil
}

// attach reads the hub's stream from c into a store with cfg's bounds.
func attach(ctx context.Context, c io.ReadWriteCloser, cfg capture.Config) (*Viewer, error) {
	v := &Viewer{conn: c, done: make(chan struct{}), waits: map[uint64]chan hubLine{}}
	pr, pw := io.Pipe()
	go v.split(c, pw)
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	rd, err := recordings.NewReader(pr)
	if !stop() {
		err = errors.Join(context.Cause(ctx), err)
	}
	if err != nil {
		_ = pr.CloseWithError(err)
		return nil, fmt.Errorf("attaching to the live session: %w", err)
	}
	v.header = rd.Header()
	store, rp := recordings.NewStore(cfg)
	v.store = store
	go v.apply(rd, rp, pr)
	return v, nil
}

// take handles one hub line: an answer, the steering in force, a bye.
func (v *Viewer) take(l hubLine) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if l.State != nil {
		v.state = *l.State
	}
	if l.Bye != "" {
		v.bye = l.Bye
	}
	if ch, ok := v.waits[l.Ref]; ok && l.Ref != 0 {
		delete(v.waits, l.Ref)
		ch <- l
	}
}

// Close detaches from the session.
func (v *Viewer) Close() {
	v.mu.Lock()
	v.closed = true
	v.mu.Unlock()
	_ = v.conn.Close()
	<-v.done
}

// Store is the viewer's own store of the session's frames.
func (v *Viewer) Store() *capture.Store { return v.store }

// Header is the session's recording header.
func (v *Viewer) Header() recordings.Header { return v.header }

// Done is closed when the stream ended: the session ended, the proxy went
// away or the viewer was closed.
func (v *Viewer) Done() <-chan struct{} { return v.done }

// Err says why the stream ended: nil when the session ended cleanly or
// the viewer was closed.
func (v *Viewer) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// Missed is how many frames this viewer skipped because it fell behind.
func (v *Viewer) Missed() int64 { return v.missed.Load() }

// PauseOn replaces the session's pause filters.
func (v *Viewer) PauseOn(filters []proxy.Filter) error {
	if _, err := v.do(context.Background(), command{Op: opPause, Filters: filters}); err != nil {
		return err
	}
	v.mu.Lock()
	v.state.Filters = slices.Clone(filters)
	v.mu.Unlock()
	return nil
}

// PauseFilters returns the pause filters in force, as the hub last said.
func (v *Viewer) PauseFilters() []proxy.Filter {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.state.Filters)
}

// Held returns the paused messages, as the hub last said.
func (v *Viewer) Held() []proxy.Held {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.state.Held)
}

// Decide lets paused message n go on (unchanged, or as d.Body) or drops
// it.
func (v *Viewer) Decide(n uint64, d proxy.Decision) error {
	_, err := v.do(context.Background(), command{Op: opDecide, Held: n, Drop: d.Drop, Body: d.Body})
	return err
}

// Inject sends a request (or notification) to the server; its answer is
// kept from the host. It returns the request's id in the session.
func (v *Viewer) Inject(ctx context.Context, body []byte) (string, error) {
	r, err := v.do(ctx, command{Op: opInject, Body: body})
	return r.ID, err
}

// SetFaults replaces the session's fault rules.
func (v *Viewer) SetFaults(rules []proxy.Fault) error {
	if _, err := v.do(context.Background(), command{Op: opFaults, Faults: rules}); err != nil {
		return err
	}
	v.mu.Lock()
	v.state.Faults = slices.Clone(rules)
	v.mu.Unlock()
	return nil
}

// Faults returns the fault rules in force, as the hub last said.
func (v *Viewer) Faults() []proxy.Fault {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.state.Faults)
}

// do sends c and waits for its answer, within ctx and (when ctx has no
// deadline) CommandTimeout.
func (v *Viewer) do(ctx context.Context, c command) (hubLine, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, CommandTimeout)
		defer cancel()
	}
	ch := make(chan hubLine, 1)
	v.mu.Lock()
	v.ref++
	c.Ref = v.ref
	v.waits[c.Ref] = ch
	v.mu.Unlock()
	defer func() {
		v.mu.Lock()
		delete(v.waits, c.Ref)
		v.mu.Unlock()
	}()
	if err := v.send(ctx, c); err != nil {
		return hubLine{}, err
	}
	select {
	case r := <-ch:
		if r.Err != "" {
			return r, errors.New(r.Err)
		}
		return r, nil
	case <-v.done:
		return hubLine{}, ErrGone
	case <-ctx.Done():
		return hubLine{}, fmt.Errorf("%s: the proxy did not answer: %w", c.Op, context.Cause(ctx))
	}
}

// send writes one command line, within ctx.
func (v *Viewer) send(ctx context.Context, c command) error {
	b, err := marshalLine(c)
	if err != nil {
		return err
	}
	if len(b) > MaxCommandLine {
		return fmt.Errorf("%s: the command is longer than %d MiB", c.Op, MaxCommandLine>>20)
	}
	v.wmu.Lock()
	defer v.wmu.Unlock()
	if nc, ok := v.conn.(net.Conn); ok {
		dl, _ := ctx.Deadline()
		_ = nc.SetWriteDeadline(dl)
	}
	if _, err := v.conn.Write(b); err != nil {
		select {
		case <-v.done:
			return ErrGone
		default:
		}
		return fmt.Errorf("%s: %w", c.Op, err)
	}
	return nil
}
