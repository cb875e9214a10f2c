package ws

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/internal/conn"
)

// Transport is one WebSocket connection carrying MCP (ModeJSONRPC) or
// seed 004's tool frames (ModeTools). It implements client.Transport.
type Transport struct {
	cfg  Config
	url  *url.URL
	life *conn.Lifecycle

	ctx    context.Context // ends with the connection
	cancel context.CancelFunc
	// closing ends at Close, so that an upgrade under way is given up.
	closing  context.Context
	stopDial context.CancelFunc
	wg       sync.WaitGroup

	mu     sync.Mutex
	ws     *websocket.Conn
	raw    net.Conn // the TCP connection under ws
	chosen string   // the subprotocol the server chose
	// answered is the status of the last answer to the upgrade ("" before
	// one came): a 401 answered, say, while its authorization ran.
	answered string
	keyLog   *os.File
	deliver  func(*jsonrpc.Message)
	tools    toolTable    // ModeTools: the ids of the calls in flight
	gw       gatewayTable // ModeGateway: the streams of the connection
	// spares are the buffers of chunks the sink kept nothing of, given
	// back (ModeGateway with a sink that releases what it does not hold;
	// nil otherwise).
	spares *chunkBuffers

	writes writeCount // the writes under way (pong.go)
}

var _ client.Transport = (*Transport)(nil)

// New returns a transport for cfg; nothing is dialled until Start.
func New(cfg Config) (*Transport, error) {
	cfg, u, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &Transport{cfg: cfg, url: u, life: conn.NewLifecycle("WebSocket", "the WebSocket is closed"), ctx: ctx, cancel: cancel}
	t.closing, t.stopDial = context.WithCancel(context.Background())
	if cfg.Mode == ModeGateway && capture.ReleasesUnheld(cfg.Sink) {
		t.spares = newChunkBuffers()
	}
	return t, nil
}

// Start opens the WebSocket (the upgrade within ctx, given up at Close)
// and starts reading.
func (t *Transport) Start(ctx context.Context, deliver func(*jsonrpc.Message)) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(t.closing, func() { cancel(client.ErrClosed) })()
	return t.life.Start(func() error {
		c, err := t.dial(ctx)
		if err != nil {
			return err
		}
		c.SetReadLimit(int64(t.cfg.MaxFrameSize))
		t.mu.Lock()
		t.ws, t.deliver, t.chosen = c, deliver, c.Subprotocol()
		t.mu.Unlock()
		t.reportSubprotocol()
		t.wg.Add(1)
		go t.read(c)
		return nil
	})
}

// OnStream sets Config.OnStream; call it before Start.
func (t *Transport) OnStream(fn func(StreamEvent)) {
	if fn != nil {
		t.cfg.OnStream = fn
	}
}

// Send writes one message: a text frame of JSON-RPC, or in ModeTools the
// tool frame of a tools/call (tools.go).
func (t *Transport) Send(ctx context.Context, m *jsonrpc.Message) error {
	if err := t.life.Writable(); err != nil {
		return err
	}
	if t.cfg.Mode == ModeTools {
		return t.sendTool(ctx, m)
	}
	raw, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	t.reportSent(raw, m)
	return t.write(ctx, websocket.MessageText, raw, m.Describe())
}

// writeCounted writes raw on c, counted among the writes under way
// whatever way the write ends.
func (t *Transport) writeCounted(ctx context.Context, c *websocket.Conn, typ websocket.MessageType, raw []byte) error {
	defer t.writes.end(t.writes.begin())
	return c.Write(ctx, typ, raw)
}

// write sends raw as one message of type typ; what names it in errors.
// A send that its context ends half-way closes the connection (the frame
// cannot be taken back), and the error says so.
func (t *Transport) write(ctx context.Context, typ websocket.MessageType, raw []byte, what string) error {
	t.mu.Lock()
	c := t.ws
	t.mu.Unlock()
	if c == nil {
		return errors.New("the WebSocket is not open")
	}
	err := t.writeCounted(ctx, c, typ, raw)
	if err != nil {
		if ctx.Err() != nil {
			t.life.End(fmt.Errorf("a send did not finish in time (the server stopped reading?): %w", ctx.Err()), nil)
			t.cancel()
			return fmt.Errorf("sending %s: %w", what, errors.Join(ctx.Err(), client.ErrStoppedReading))
		}
		if t.life.Err() != nil {
			return t.life.Gone()
		}
		return fmt.Errorf("sending %s: %w", what, err)
	}
	return nil
}

// closeWait bounds the close handshake at Close: past it, or when the
// connection failed already, the connection is dropped without one.
const closeWait = time.Second

// Close ends the connection with a normal closure (1000), waiting at most
// closeWait for the server's close frame, and waits for the reader.
func (t *Transport) Close() error {
	t.stopDial() // an upgrade under way holds the lifecycle until it ends
	started := t.life.Close()
	t.mu.Lock()
	c := t.ws
	t.mu.Unlock()
	if c != nil {
		t.closeConn(c)
	}
	t.cancel()
	if !started {
		t.life.End(nil, nil)
	}
	t.wg.Wait()
	t.mu.Lock()
	if t.keyLog != nil {
		_ = t.keyLog.Close()
		t.keyLog = nil
	}
	t.mu.Unlock()
	if c, ok := t.cfg.Auth.(io.Closer); ok {
		_ = c.Close() // the OAuth flow's redirect listener
	}
	return nil
}

// closeConn sends the close frame and waits for the handshake within
// closeWait, or drops a connection that failed already.
func (t *Transport) closeConn(c *websocket.Conn) {
	if t.life.Err() != nil {
		_ = c.CloseNow()
		return
	}
	t.reportClose(outgoing, websocket.StatusNormalClosure, "mcpscope is done")
	t.closeWith(c, websocket.StatusNormalClosure, "mcpscope is done")
}

// closeWith sends a close frame of code and reason and waits for the
// handshake within closeWait; past it the connection is dropped.
func (t *Transport) closeWith(c *websocket.Conn, code websocket.StatusCode, reason string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = c.Close(code, reason)
	}()
	select {
	case <-done:
	case <-time.After(closeWait):
		t.mu.Lock()
		raw := t.raw
		t.mu.Unlock()
		if raw != nil {
			_ = raw.Close() // every read and write on it fails at once
		}
		t.cancel()
		<-done
	}
}

// Done is closed when the connection has gone.
func (t *Transport) Done() <-chan struct{} { return t.life.Done() }

// Err says why the connection went: the close code and reason, or nil
// after a clean Close.
func (t *Transport) Err() error { return t.life.Err() }

// HandshakeFree reports true for seed 004's tool dialect.
func (t *Transport) HandshakeFree() bool { return t.cfg.Mode == ModeTools }

// LinkState names the transport and the subprotocol in use.
func (t *Transport) LinkState() client.LinkState {
	t.mu.Lock()
	defer t.mu.Unlock()
	kind := "WebSocket"
	switch t.cfg.Mode {
	case ModeTools:
		kind = "tools-ws"
	case ModeGateway:
		kind = "gateway"
	}
	if t.chosen != "" {
		kind += " (" + t.chosen + ")"
	}
	return client.LinkState{Dialect: mcp.DialectMCP, Encoding: "json", Transport: kind}
}
