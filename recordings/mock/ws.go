package mock

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// Subprotocol is the WebSocket subprotocol of an MCP session, chosen when
// the client offers it.
const Subprotocol = "mcp"

// wsWriteTimeout bounds one write to a client that stopped reading: the
// connection closes then.
const wsWriteTimeout = 30 * time.Second

// WSHandler serves a Recording over WebSocket at Path: one JSON-RPC
// message per text frame, each connection a Conn of its own.
type WSHandler struct{ rec *Recording }

// NewWSHandler returns a handler that serves rec.
func NewWSHandler(rec *Recording) *WSHandler { return &WSHandler{rec: rec} }

// ServeHTTP upgrades a request at Path and serves the connection until
// the client closes it or the request's context ends.
func (h *WSHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != Path {
		http.NotFound(w, r)
		return
	}
	if !loopbackOrigin(r.Header.Get("Origin")) {
		http.Error(w, "Origin not allowed: the mock accepts connections from loopback origins only", http.StatusForbidden)
		return
	}
	// The Origin was checked above.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Subprotocol}, InsecureSkipVerify: true})
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(MaxMessage)
	ctx := r.Context()
	conn := h.rec.NewConn()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			_ = c.Close(websocket.StatusUnsupportedData, "MCP messages are text frames")
			return
		}
		if answerFrames(ctx, c, conn, msg) != nil {
			return
		}
	}
}

// answerFrames sends conn's answers to msg as they are made: each in a
// text frame, the answers to a batch as one JSON array in one frame.
func answerFrames(ctx context.Context, c *websocket.Conn, conn *Conn, msg []byte) error {
	var array io.WriteCloser
	var cancel context.CancelFunc
	defer func() {
		if cancel != nil {
			cancel()
		}
	}()
	err := conn.Each(msg, func(b []byte, inBatch bool) error {
		if !inBatch {
			return write(ctx, c, b)
		}
		sep := []byte{','}
		if array == nil {
			var wctx context.Context
			wctx, cancel = context.WithTimeout(ctx, wsWriteTimeout)
			w, err := c.Writer(wctx, websocket.MessageText)
			if err != nil {
				return err
			}
			array, sep = w, []byte{'['}
		}
		if _, err := array.Write(sep); err != nil {
			return err
		}
		_, err := array.Write(b)
		return err
	})
	if array == nil {
		return err
	}
	if err == nil {
		_, err = array.Write([]byte{']'})
	}
	if cerr := array.Close(); err == nil {
		err = cerr
	}
	return err
}

// write sends one message as a text frame, bounded by wsWriteTimeout.
func write(ctx context.Context, c *websocket.Conn, msg []byte) error {
	ctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, msg)
}
