package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/proxy"
)

// MaxViewers bounds the viewers of one session; one more is told so and
// turned away.
const MaxViewers = 32

// closeGrace bounds how long Close waits for a viewer to take the frames
// it has not read yet.
const closeGrace = 2 * time.Second

// injectTimeout bounds the send of an injected request to the server.
const injectTimeout = 30 * time.Second

// Hub publishes one session to its viewers.
type Hub struct {
	sess    *proxy.Session
	ln      net.Listener
	socket  string
	sidecar string
	closing chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	gen     atomic.Uint64 // bumped when the pause filters or the faults change

	mu      sync.Mutex
	viewers map[*viewerConn]bool
	closed  bool
}

// Serve opens the session's socket in Dir (mode 0600), writes its
// sidecar, and publishes s on it until Close.
func Serve(s *proxy.Session) (*Hub, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return serveIn(dir, s)
}

func serveIn(dir string, s *proxy.Session) (*Hub, error) {
	base, err := stem(dir, s.Name())
	if err != nil {
		return nil, err
	}
	h := &Hub{sess: s, socket: base + socketExt, sidecar: base + sidecarExt, closing: make(chan struct{}), viewers: map[*viewerConn]bool{}}
	ln, err := net.Listen("unix", h.socket)
	if err != nil {
		return nil, fmt.Errorf("opening the live socket: %w", err)
	}
	h.ln = ln
	if err := os.Chmod(h.socket, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("closing the live socket to others: %w", err)
	}
	hd := s.Header()
	e := Entry{Name: s.Name(), PID: os.Getpid(), Target: hd.Target, Transport: hd.Transport, Started: hd.Started, Recording: s.Recording()}
	if err := writeSidecar(h.sidecar, e); err != nil {
		_ = ln.Close()
		return nil, err
	}
	h.wg.Add(1)
	go h.accept()
	return h, nil
}

// Socket is the path of the hub's socket.
func (h *Hub) Socket() string { return h.socket }

// Viewers is how many viewers are attached.
func (h *Hub) Viewers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.viewers)
}

// Close stops publishing: every viewer is sent what it has not read yet
// (within a short grace) and, when the session has ended, the end line;
// the socket and the sidecar are removed.
func (h *Hub) Close() {
	if h == nil {
		return
	}
	h.once.Do(func() {
		_ = os.Remove(h.sidecar)
		h.mu.Lock()
		h.closed = true
		for v := range h.viewers {
			// A viewer that stopped reading holds up no one past this.
			_ = v.conn.SetWriteDeadline(time.Now().Add(closeGrace))
		}
		h.mu.Unlock()
		close(h.closing)
		_ = h.ln.Close()
		h.wg.Wait()
		_ = os.Remove(h.socket)
	})
}

// accept takes viewers until Close.
func (h *Hub) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			select {
			case <-h.closing:
				return
			case <-time.After(50 * time.Millisecond): // a transient error (too many files): breathe
			}
			continue
		}
		v := newViewerConn(h, c)
		if !h.join(v) {
			_ = v.out.send(hubLine{K: hubKind, Bye: fmt.Sprintf("this session has %d viewers already", MaxViewers)})
			_ = c.Close()
			continue
		}
		h.wg.Add(2)
		go v.pump()
		go v.readCommands()
	}
}

// join counts v in, unless the hub is closing or full.
func (h *Hub) join(v *viewerConn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.viewers) >= MaxViewers {
		return false
	}
	h.viewers[v] = true
	return true
}

// leave counts v out; when it was the last, the paused messages go on and
// the pause filters are cleared.
func (h *Hub) leave(v *viewerConn) {
	h.mu.Lock()
	_, was := h.viewers[v]
	delete(h.viewers, v)
	last := was && len(h.viewers) == 0
	h.mu.Unlock()
	if last {
		h.sess.ReleaseAll("no viewer left")
		h.bump()
	}
}

// bump tells every viewer the steering changed.
func (h *Hub) bump() {
	h.gen.Add(1)
	h.mu.Lock()
	defer h.mu.Unlock()
	for v := range h.viewers {
		select {
		case v.wake <- struct{}{}:
		default:
		}
	}
}

// do carries out a viewer's command and says how it went.
func (h *Hub) do(ctx context.Context, c command) hubLine {
	r := hubLine{K: hubKind, Ref: c.Ref}
	var err error
	switch c.Op {
	case opPause:
		if err = h.sess.PauseOn(c.Filters); err == nil {
			h.bump()
		}
	case opDecide:
		if err = checkDecide(c); err != nil {
			break
		}
		if c.Body != nil {
			if c.Body, err = h.unmask(c.Body, c.Held); err != nil {
				break
			}
		}
		err = h.sess.Decide(c.Held, proxy.Decision{Drop: c.Drop, Body: c.Body})
	case opInject:
		if len(c.Body) == 0 {
			err = errors.New("inject needs a body")
			break
		}
		ctx, cancel := context.WithTimeout(ctx, injectTimeout)
		r.ID, err = h.sess.Inject(ctx, c.Body)
		cancel()
	case opFaults:
		if err = h.sess.SetFaults(c.Faults); err == nil {
			h.bump()
		}
	}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

// state is the steering in force.
func (h *Hub) state() *hubState {
	return &hubState{Filters: h.sess.PauseFilters(), Faults: h.sess.Faults(), Held: h.maskHeld(h.sess.Held())}
}

// checkDecide says what is wrong with a decide command, or nil.
func checkDecide(c command) error {
	switch {
	case c.Held == 0:
		return errors.New("decide needs the held number of a paused message")
	case c.Drop && c.Body != nil:
		return errors.New("decide either drops a message or edits it, not both")
	}
	return nil
}
