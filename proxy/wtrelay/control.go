package wtrelay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/transports/flowstream"
)

// control relays the control stream of a pair, frame by frame. It is the
// proxy.Carrier of its messages.
type control struct {
	p *pair

	mu         sync.Mutex
	enc        proto.Encoding // of every frame after the initialize result
	negotiated bool
	str        [2]*wt.Stream // by the direction written to: [outward] the server's, [inward] the host's
	wmu        [2]sync.Mutex // one frame at a time on each
}

// run takes the host's first bidirectional stream as the control stream,
// opens its twin to the server and relays both ways; the host's later
// bidirectional streams are relayed as unknown ones.
func (c *control) run(ctx context.Context) {
	p := c.p
	hs, err := p.host.AcceptStream(ctx)
	if err != nil {
		return
	}
	us, err := p.up.OpenStreamSync(ctx)
	if err != nil {
		p.note(inward, "the server's control stream could not be opened: "+err.Error())
		hs.CancelRead(streamCodeAborted)
		hs.CancelWrite(streamCodeAborted)
		return
	}
	c.mu.Lock()
	c.str[outward], c.str[inward] = us, hs
	c.mu.Unlock()
	var wg sync.WaitGroup
	wg.Go(func() { p.acceptBidi(ctx, outward, p.host, p.up) })
	wg.Go(func() { c.pump(ctx, outward, hs, us) })
	c.pump(ctx, inward, us, hs)
	wg.Wait()
}

// ready says whether the control stream is up.
func (c *control) ready() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.str[outward] != nil
}

// encoding is the encoding of control frames in force.
func (c *control) encoding() proto.Encoding {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enc
}

// pump relays the frames read from from (going dir) to to until the
// stream ends; a broken frame is captured with its error and its bytes,
// and what follows it, relayed as they came.
func (c *control) pump(ctx context.Context, dir capture.Dir, from, to *wt.Stream) {
	for {
		frame, body, fields, err := flowstream.ReadControlFrame(from, c.p.r.opt.MaxFrameSize)
		if err != nil {
			c.broken(dir, from, to, frame, fields, err)
			return
		}
		enc := c.encoding()
		if dir == inward {
			c.negotiate(body)
		}
		h := proxy.Hop{Dir: dir, Conn: c.p.conn, Session: c.p.conn, Chan: capture.Channel{Kind: capture.Control}, Raw: frame, Body: body, Enc: enc, Fields: fields}
		if err := c.p.r.sess.Relay(ctx, h, c); err != nil {
			from.CancelRead(streamCodeAborted)
			return
		}
	}
}

// broken ends one direction of the control stream: a clean end is passed
// on as one; otherwise what was read of the broken frame is captured with
// the error and written on, and after a lying length prefix the rest of
// the stream is copied unframed.
func (c *control) broken(dir capture.Dir, from, to *wt.Stream, frame []byte, fields []proto.Field, err error) {
	if len(frame) == 0 && errors.Is(err, io.EOF) {
		_ = to.Close()
		return
	}
	if len(frame) > 0 {
		c.p.capture(&capture.Frame{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: frame, Fields: fields, Enc: c.encoding(),
			Err: fmt.Errorf("a broken control frame, relayed as it came: %w", err)})
		c.wmu[dir].Lock()
		_, werr := to.Write(frame)
		c.wmu[dir].Unlock()
		if werr != nil {
			from.CancelRead(streamCodeAborted)
			return
		}
	}
	var tooLarge *flow.FrameTooLargeError
	if errors.As(err, &tooLarge) {
		c.p.copyRaw(dir, from, to, &c.wmu[dir], "unframed bytes after a control frame whose length is over the limit")
		return
	}
	finish(to, err)
}

// negotiate switches to the encoding an initialize result settles, for
// the frames after it.
func (c *control) negotiate(body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.negotiated {
		return
	}
	var m struct {
		Result *struct {
			Transport *flow.FlowTransport `json:"transport"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &m) != nil || m.Result == nil || m.Result.Transport == nil {
		return
	}
	c.negotiated = true
	if m.Result.Transport.Encoding == "cbor" {
		c.enc = proto.EncCBOR
	}
}

// write writes one frame toward dir's receiver.
func (c *control) write(dir capture.Dir, frame []byte) error {
	c.mu.Lock()
	str := c.str[dir]
	c.mu.Unlock()
	if str == nil {
		return proxy.ErrNoServerPath
	}
	c.wmu[dir].Lock()
	defer c.wmu[dir].Unlock()
	_, err := str.Write(frame)
	return err
}

// Pass writes h.Raw, the frame as it came.
func (c *control) Pass(_ context.Context, h proxy.Hop) error { return c.write(h.Dir, h.Raw) }

// Send frames body in the negotiated encoding (a JSON body is turned into
// CBOR when the session speaks CBOR) and writes it toward dir's receiver.
func (c *control) Send(_ context.Context, dir capture.Dir, body []byte) error {
	if c.encoding() == proto.EncCBOR && json.Valid(body) {
		b, err := jsonrpc.JSONToCBOR(body)
		if err != nil {
			return fmt.Errorf("the message in CBOR: %w", err)
		}
		body = b
	}
	frame, err := flow.EncodeControlFrame(body, c.p.r.opt.MaxFrameSize)
	if err != nil {
		return err
	}
	return c.write(dir, frame)
}

// Cut ends the pair on purpose.
func (c *control) Cut(reason string) { c.p.Cut(reason) }
