package webtransport

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/internal/conn"
)

// Transport is an MCP-Flow client connection. It implements
// client.Transport and declares its traits through Describe.
type Transport struct {
	cfg    Config
	url    *url.URL
	pins   [][32]byte
	states stateMachine
	table  *streamTable

	life *conn.Lifecycle

	mu         sync.Mutex
	sess       *wt.Session
	control    *wt.Stream
	keyLog     *os.File
	deliver    func(*jsonrpc.Message)
	sentFirst  bool           // the initialize request went out
	initSent   time.Time      // when it went out
	initRTT    time.Duration  // from then to its result: a round trip, about
	enc        proto.Encoding // encoding of frames both ways: JSON until negotiated
	negotiated bool
	nego       Negotiation

	deliverMu sync.Mutex    // deliver is called by one goroutine at a time
	wslot     chan struct{} // one writer on the control stream at a time
	out       conn.Writer   // keeps the rest of a frame cut short by a cancelled Send
	loops     sync.WaitGroup
	shutdown  sync.Once
	shutdowns atomic.Uint64 // $/shutdown received (shutdown.go)
}

var _ client.Transport = (*Transport)(nil)

// New returns an MCP-Flow transport for cfg. Nothing connects until Start.
// A malformed URL, certificate hash or encoding is an error.
func New(cfg Config) (*Transport, error) {
	cfg = cfg.withDefaults()
	u, pins, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	t := &Transport{
		cfg:   cfg,
		url:   u,
		pins:  pins,
		table: newStreamTable(),
		life:  conn.NewLifecycle("MCP-Flow", "the MCP-Flow session is gone"),
		wslot: make(chan struct{}, 1),
		out:   conn.Writer{Unit: "frame", Next: "frame", Dest: "the control stream"},
	}
	t.states.observe = cfg.OnState
	return t, nil
}

// Start opens the WebTransport session and the control stream, then reads
// the control stream, execution streams and datagrams. Messages go to
// deliver, in order, one call at a time; deliver must not block and must
// not call Close. ctx bounds the connection set-up only.
func (t *Transport) Start(ctx context.Context, deliver func(*jsonrpc.Message)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("connecting to %s was cancelled: %w", t.url, err)
	}
	if deliver == nil {
		deliver = func(*jsonrpc.Message) {}
	}
	if err := t.life.Start(nil); err != nil {
		return err
	}
	t.mu.Lock()
	t.deliver = deliver
	t.mu.Unlock()
	if err := t.connect(ctx); err != nil {
		t.finish(err)
		return err
	}
	return nil
}

// connect dials, opens the control stream and starts the readers.
func (t *Transport) connect(ctx context.Context) error {
	sess, err := t.dial(ctx)
	if err != nil {
		return err
	}
	t.states.move(StateConnected, "WebTransport session established")
	str, err := sess.OpenStreamSync(ctx)
	if err != nil {
		_ = sess.CloseWithError(0, "")
		t.states.move(StateClosed, "the control stream could not be opened")
		return fmt.Errorf("opening the MCP-Flow control stream on %s: %w", t.url, err)
	}
	t.mu.Lock()
	if t.life.Closing() { // Close ran while the session was being set up
		t.mu.Unlock()
		_ = sess.CloseWithError(sessionCodeShutdown, "shutdown")
		return client.ErrClosed
	}
	t.sess, t.control = sess, str
	t.mu.Unlock()
	t.states.move(StateControlStreamOpened, "the client opened the control stream")
	t.loops.Add(3)
	go t.readControl(str)
	go t.acceptStreams(sess)
	go t.readDatagrams(sess)
	go t.supervise(sess)
	return nil
}

// supervise ends the connection once the session is gone and every reader
// has stopped, so that nothing is delivered after Done.
func (t *Transport) supervise(sess *wt.Session) {
	<-sess.Context().Done()
	t.loops.Wait()
	t.table.finish()
	t.finish(fmt.Errorf("the WebTransport session to %s ended", t.url))
}

// fail records err as the reason the connection goes, unless the client is
// closing or a reason is known, and closes the session.
func (t *Transport) fail(err error) {
	t.life.Fail(err)
	t.mu.Lock()
	sess := t.sess
	t.mu.Unlock()
	if sess != nil {
		_ = sess.CloseWithError(sessionCodeError, oneLine(err.Error()))
	}
}

// finish records err as the reason (unless closing or already known), moves
// to CLOSED and closes Done, once.
func (t *Transport) finish(err error) {
	t.life.Fail(err)
	t.life.End(nil, func(cause error) {
		reason := "closed by the client"
		if cause != nil {
			reason = cause.Error()
		}
		t.mu.Lock()
		keyLog := t.keyLog
		t.mu.Unlock()
		if keyLog != nil {
			_ = keyLog.Close()
		}
		t.states.move(StateClosed, reason)
	})
}

// Done is closed when the connection has gone: after Close, after the
// server's $/shutdown, or when the session failed. No message is delivered
// after.
func (t *Transport) Done() <-chan struct{} { return t.life.Done() }

// Err says why the connection went: nil while it is open and after a clean
// Close; otherwise the cause (ErrServerShutdown, a *client.ProtocolError for
// a broken control stream, the session's close reason, …).
func (t *Transport) Err() error { return t.life.Err() }

// State returns the connection's current state.
func (t *Transport) State() State { return t.states.get() }

// History returns the state transitions so far, oldest first.
func (t *Transport) History() []Transition { return t.states.transitions() }

// Negotiated returns what the engine settled from the initialize result
// and whether it has arrived yet.
func (t *Transport) Negotiated() (Negotiation, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nego, t.negotiated
}

// CancelRequest sends $/cancel {requestId, reason} for a request in flight.
func (t *Transport) CancelRequest(ctx context.Context, id jsonrpc.ID, reason string) error {
	n, ok := FlowRequestID(id)
	if !ok {
		return fmt.Errorf("MCP-Flow can only cancel integer request ids below 2^32, not %s", id)
	}
	t.table.cancelled(n)
	msg, err := jsonrpc.NewNotification(MethodCancel, CancelParams{RequestID: n, Reason: reason})
	if err != nil {
		return err
	}
	return t.Send(ctx, msg)
}

// AwaitStreams waits until every execution stream of the request with id
// (those that arrived and those its result refers to) has ended, and
// returns their failures joined (*StreamFailedError). It returns nil at
// once for a request with no streams or an id MCP-Flow cannot carry.
func (t *Transport) AwaitStreams(ctx context.Context, id jsonrpc.ID) error {
	n, ok := FlowRequestID(id)
	if !ok {
		return nil
	}
	return t.table.await(ctx, n)
}

// report stamps f and hands it to the sink; it returns the sink's Seq.
func (t *Transport) report(dir capture.Dir, f *capture.Frame) uint64 {
	if f.Time.IsZero() {
		f.Time = time.Now()
	}
	f.Dir = dir
	f.Conn = t.cfg.Conn
	return t.cfg.Sink.Append(f)
}

// streamKey is the capture key of a stream of this connection.
func (t *Transport) streamKey(id, tag uint32) capture.StreamKey {
	return capture.StreamKey{Conn: t.cfg.Conn, ReqID: id, Tag: tag}
}

// mark tells the sink how a stream stands, when it takes notes.
func (t *Transport) mark(key capture.StreamKey, state capture.StreamState, err error) {
	capture.Note(t.cfg.Sink, capture.StreamMarked{Key: key, State: state, Err: err})
}

// deliverMessage hands m to the engine, one call at a time.
func (t *Transport) deliverMessage(m *jsonrpc.Message) {
	t.deliverMu.Lock()
	defer t.deliverMu.Unlock()
	t.deliver(m)
}
