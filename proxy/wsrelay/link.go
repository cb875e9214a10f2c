package wsrelay

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
)

// Message types, as the relay carries them.
const (
	textMessage   = websocket.MessageText
	binaryMessage = websocket.MessageBinary
)

// link is one host connection and its twin to the server. It is the
// proxy.Carrier of the messages it relays.
type link struct {
	r        *Relay
	conn     string // the capture's connection name
	host, up *websocket.Conn
	streams  gatewayStreams

	mu     sync.Mutex         // guards host, up, ctx and stop until set
	ctx    context.Context    // the link's life: what its writes are bounded by
	stop   context.CancelFunc // ends the link's life
	ending sync.Once
}

// started sets the two connections of the link.
func (l *link) started(host, up *websocket.Conn) {
	l.mu.Lock()
	l.host, l.up = host, up
	l.mu.Unlock()
}

// running says whether both connections are set.
func (l *link) running() bool { return l.upstream() != nil }

// upstream is the connection to the server, nil until the link runs.
func (l *link) upstream() *websocket.Conn {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.up
}

// capture appends f on the link's connection, stamped.
func (l *link) capture(f *capture.Frame) uint64 {
	return l.r.sess.CaptureOn(l.conn, f)
}

// run relays both ways until one side ends, which ends the other.
func (l *link) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.mu.Lock()
	l.ctx, l.stop = ctx, cancel
	l.mu.Unlock()
	var wg sync.WaitGroup
	wg.Go(func() { l.pump(ctx, capture.Out, l.host) })
	wg.Go(func() { l.pump(ctx, capture.In, l.up) })
	wg.Wait()
}

// message is one message read, on its way to be carried.
type message struct {
	typ  websocket.MessageType
	data []byte
	dir  capture.Dir // which way it goes, when it is being carried
}

// pump reads the messages of from (the host's for capture.Out, the
// server's for capture.In) and carries each on. The reading runs one
// message ahead of the carrying, so that a side that leaves while its
// last message is paused is seen: the pause ends with it.
func (l *link) pump(ctx context.Context, dir capture.Dir, from *websocket.Conn) {
	hold, gone := context.WithCancel(ctx)
	defer gone()
	msgs := make(chan message)
	read := make(chan struct{})
	var readErr error
	go func() {
		defer close(read)
		defer close(msgs)
		for {
			typ, data, err := from.Read(ctx)
			if err != nil {
				readErr = err
				gone()
				return
			}
			select {
			case msgs <- message{typ: typ, data: data}:
			case <-ctx.Done():
				readErr = ctx.Err()
				return
			}
		}
	}()
	defer func() { <-read }()
	for m := range msgs {
		if err := l.carry(hold, dir, m.typ, m.data); err != nil && hold.Err() == nil {
			l.end(1-dir, err) // the receiver is gone
			return
		}
	}
	l.end(dir, readErr)
}

// carry relays one message: gateway stream messages straight on,
// captured as stream frames; the rest through the session.
func (l *link) carry(ctx context.Context, dir capture.Dir, typ websocket.MessageType, data []byte) error {
	if l.r.opt.Gateway {
		if f := l.streams.frame(l, dir, typ, data); f != nil {
			l.capture(f)
			return l.write(l.life(), l.to(dir), typ, data)
		}
	}
	enc := proto.EncJSON
	if typ == binaryMessage {
		enc = proto.EncBinary
	}
	h := proxy.Hop{Dir: dir, Conn: l.conn, Session: l.conn, Chan: capture.Channel{Kind: capture.Control}, Raw: data, Body: data, Enc: enc}
	return l.r.sess.Relay(context.WithValue(ctx, carrying{}, message{typ: typ, dir: dir}), h, l)
}

// carrying is the context key of the message being carried: what Send
// writes in its place keeps its type.
type carrying struct{}

// to is the connection a message going dir is written to.
func (l *link) to(dir capture.Dir) *websocket.Conn {
	if dir == capture.Out {
		return l.up
	}
	return l.host
}

// write writes one message to c.
func (l *link) write(ctx context.Context, c *websocket.Conn, typ websocket.MessageType, data []byte) error {
	return c.Write(ctx, typ, data)
}

// life is the context of the link's life: a write that began goes on
// while the link lives, whatever became of the wait that led to it.
func (l *link) life() context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ctx
}

// Pass writes h.Raw unchanged, in its own message type.
func (l *link) Pass(_ context.Context, h proxy.Hop) error {
	typ := textMessage
	if h.Enc == proto.EncBinary {
		typ = binaryMessage
	}
	return l.write(l.life(), l.to(h.Dir), typ, h.Raw)
}

// Send writes body toward dir's receiver: in the type of the message it
// stands for (an edited or corrupted one, a duplicate) when ctx is that
// message's carrying it the same way, else as a text message (an answer
// the proxy makes).
func (l *link) Send(ctx context.Context, dir capture.Dir, body []byte) error {
	typ := textMessage
	if m, ok := ctx.Value(carrying{}).(message); ok && m.dir == dir {
		typ = m.typ
	}
	return l.write(l.life(), l.to(dir), typ, body)
}

// Cut closes both sides with 1001 saying why.
func (l *link) Cut(reason string) {
	if !l.running() {
		return
	}
	l.closeBoth(capture.Out, websocket.StatusGoingAway, "mcpscope proxy: "+reason, reason)
}

// end closes both sides after the side dir's messages come from stopped
// with err: its close code and reason go on to the other side.
func (l *link) end(dir capture.Dir, err error) {
	code, reason, words := closing(dir, err)
	l.closeBoth(dir, code, reason, words)
}

// closeBoth closes both connections once with code and reason, noting
// words as what the side dir did.
func (l *link) closeBoth(dir capture.Dir, code websocket.StatusCode, reason, words string) {
	l.ending.Do(func() {
		l.note(dir, words)
		reason = cutReason(reason)
		var wg sync.WaitGroup
		wg.Go(func() { _ = l.host.Close(code, reason) })
		wg.Go(func() { _ = l.up.Close(code, reason) })
		wg.Wait()
		l.mu.Lock()
		if l.stop != nil {
			l.stop()
		}
		l.mu.Unlock()
	})
}

// closing says how to close the other side after the side dir's reader
// stopped with err: its own close code and reason when it sent a close
// frame, else what happened in words.
func closing(dir capture.Dir, err error) (websocket.StatusCode, string, string) {
	who := "the host"
	if dir == capture.In {
		who = "the server"
	}
	var ce websocket.CloseError
	switch {
	case errors.As(err, &ce) && ce.Code == websocket.StatusNoStatusRcvd:
		return websocket.StatusNormalClosure, "", who + " closed the WebSocket (no status)"
	case errors.As(err, &ce):
		return ce.Code, ce.Reason, fmt.Sprintf("%s closed the WebSocket with %d: %s", who, int(ce.Code), ce.Reason)
	case errors.Is(err, websocket.ErrMessageTooBig):
		return websocket.StatusMessageTooBig, "message too big", who + " sent a message over the proxy's limit: both sides closed with 1009"
	case errors.Is(err, context.Canceled):
		return websocket.StatusGoingAway, "mcpscope proxy stopped", "the proxy stopped"
	}
	return websocket.StatusGoingAway, "mcpscope proxy: " + who + " dropped the connection",
		fmt.Sprintf("%s dropped the WebSocket without a close frame (%v)", who, err)
}

// cutReason cuts a close reason to what a close frame holds (123 bytes),
// on a UTF-8 boundary.
func cutReason(s string) string {
	const limit = 123
	if len(s) <= limit {
		return s
	}
	s = s[:limit]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xC0 {
		s = s[:len(s)-1]
	}
	return s
}
