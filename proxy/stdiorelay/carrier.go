package stdiorelay

import (
	"context"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
)

// carrier is how the session carries the lines of one direction on: to
// the server's stdin or the host's stdout, a whole line at a time.
type carrier struct {
	r *relay
	// more says the next line of the direction is read already: what
	// goes toward its receiver meanwhile may wait to go with it, in one
	// write. The relay's loop flushes once no line is waiting.
	more atomic.Bool
	// holding says the session's recording is held for this direction
	// (Session.HoldRecording); only the direction's relay loop touches it.
	holding bool
}

// hold holds the recording while the direction carries a line (and the
// lines read with it) on, and releases it, which writes them to the file,
// once they are delivered.
func (c *carrier) hold(on bool) {
	switch {
	case on && !c.holding:
		c.r.sess.HoldRecording()
		c.holding = true
	case !on && c.holding:
		c.r.sess.ReleaseRecording()
		c.holding = false
	}
}

// Pass writes h.Raw, unchanged, toward its receiver.
func (c *carrier) Pass(ctx context.Context, h proxy.Hop) error {
	return c.r.to(h.Dir).write(ctx, h.Raw, c.more.Load())
}

// Send writes body and LF toward dir's receiver.
func (c *carrier) Send(ctx context.Context, dir capture.Dir, body []byte) error {
	return c.r.to(dir).write(ctx, jsonrpc.AppendLine(make([]byte, 0, len(body)+1), body), c.more.Load())
}

// Cut ends both sides: the host's stdout closes (the host sees the server
// go), the host's lines are no longer read, and the server's stdin closes
// (the server is asked to exit, then stopped).
func (c *carrier) Cut(reason string) {
	c.r.host.close(true)
	c.r.endHost()
}
