package wtrelay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/transports/flowstream"
)

// Codes the proxy resets a stream with when it cannot relay it.
const streamCodeAborted wt.StreamErrorCode = 0x32603

// headerTimeout bounds the wait for the header of a new stream.
const headerTimeout = 10 * time.Second

// chunkSize is the most a stream relay reads at once.
const chunkSize = 32 << 10

// acceptUni relays every unidirectional stream from opens (its streams go
// dir) until the session ends.
func (p *pair) acceptUni(ctx context.Context, dir capture.Dir, from, to *wt.Session) {
	for {
		str, err := from.AcceptUniStream(ctx)
		if err != nil {
			return
		}
		p.streams.Go(func() { p.relayUni(ctx, dir, str, to) })
	}
}

// relayUni relays one execution stream going dir: its twin is opened on
// to, the header read, checked and captured, and the payload copied as it
// arrives, each read one stream chunk; how it ends is passed on.
func (p *pair) relayUni(ctx context.Context, dir capture.Dir, str *wt.ReceiveStream, to *wt.Session) {
	twin, err := to.OpenUniStreamSync(ctx)
	if err != nil {
		str.CancelRead(streamCodeAborted)
		p.note(dir, "an execution stream could not be opened on the other side: "+err.Error())
		return
	}
	_ = str.SetReadDeadline(time.Now().Add(headerTimeout))
	h, raw, fields, err := flowstream.ReadExecStreamHeader(str)
	_ = str.SetReadDeadline(time.Time{})
	if err != nil {
		p.capture(&capture.Frame{Dir: dir, Chan: capture.Channel{Kind: capture.Stream}, Raw: raw, Enc: proto.EncBinary,
			Err: fmt.Errorf("an execution stream ended before its header was whole, relayed as it came: %w", err)})
		if _, werr := twin.Write(raw); werr != nil {
			str.CancelRead(streamCodeAborted)
		}
		finish(twin, err)
		return
	}
	ch := capture.Channel{Kind: capture.Stream, ReqID: h.RequestID, Tag: h.StreamTag}
	key := capture.StreamKey{Conn: p.conn, ReqID: h.RequestID, Tag: h.StreamTag}
	p.capture(&capture.Frame{Dir: dir, Chan: ch, Raw: raw, Fields: fields, Enc: proto.EncBinary})
	p.r.sess.Tap().Note(capture.StreamMarked{Key: key, State: capture.StreamOpen})
	if _, err := twin.Write(raw); err != nil {
		str.CancelRead(resetCode(err))
		p.mark(key, capture.StreamReset, err)
		return
	}
	var wmu sync.Mutex
	end := p.copyChunks(dir, ch, str, twin, &wmu)
	switch {
	case end == nil:
		p.mark(key, capture.StreamDone, nil)
	case isReset(end):
		p.mark(key, capture.StreamReset, end)
	default:
		p.mark(key, capture.StreamError, end)
	}
}

// mark notes how the stream key ended.
func (p *pair) mark(key capture.StreamKey, state capture.StreamState, err error) {
	p.r.sess.Tap().Note(capture.StreamMarked{Key: key, State: state, Err: err})
}

// sendSide is what the relays write to: a unidirectional stream or the
// send side of a bidirectional one.
type sendSide interface {
	io.WriteCloser
	CancelWrite(wt.StreamErrorCode)
}

// receiveSide is what the relays read from.
type receiveSide interface {
	io.Reader
	CancelRead(wt.StreamErrorCode)
}

// copyChunks copies from to to as the bytes arrive, capturing each read
// as a frame on ch, until from ends; the end is passed on (FIN, or the
// reset's code) and returned (nil: FIN). A receiver that stopped reading
// stops the reading of from with its code.
func (p *pair) copyChunks(dir capture.Dir, ch capture.Channel, from receiveSide, to sendSide, wmu *sync.Mutex) error {
	buf := make([]byte, chunkSize)
	for {
		n, rerr := from.Read(buf)
		if n > 0 {
			f := &capture.Frame{Dir: dir, Chan: ch, Raw: append([]byte(nil), buf[:n]...), Enc: proto.EncBinary,
				Fields: []proto.Field{{Len: n, Name: "payload", Kind: proto.FieldBody}}}
			if ch.Kind == capture.Control {
				f.Err = errUnknownStream
			}
			p.capture(f)
			wmu.Lock()
			_, werr := to.Write(buf[:n])
			wmu.Unlock()
			if werr != nil {
				from.CancelRead(resetCode(werr))
				return fmt.Errorf("the receiver stopped the stream: %w", werr)
			}
		}
		if rerr != nil {
			finish(to, rerr)
			if errors.Is(rerr, io.EOF) {
				return nil
			}
			return rerr
		}
	}
}

// copyRaw copies the rest of a control stream after a frame that broke
// its framing, unframed, each read captured with why.
func (p *pair) copyRaw(dir capture.Dir, from *wt.Stream, to *wt.Stream, wmu *sync.Mutex, why string) {
	buf := make([]byte, chunkSize)
	for {
		n, rerr := from.Read(buf)
		if n > 0 {
			p.capture(&capture.Frame{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: append([]byte(nil), buf[:n]...),
				Enc: proto.EncBinary, Err: errors.New(why)})
			wmu.Lock()
			_, werr := to.Write(buf[:n])
			wmu.Unlock()
			if werr != nil {
				from.CancelRead(resetCode(werr))
				return
			}
		}
		if rerr != nil {
			finish(to, rerr)
			return
		}
	}
}

// errUnknownStream marks the bytes of a stream MCP-Flow does not define.
var errUnknownStream = errors.New("a bidirectional stream other than the control stream, which MCP-Flow does not define; relayed as it came")

// acceptBidi relays the bidirectional streams from opens (the host's
// after its control stream) as unknown streams.
func (p *pair) acceptBidi(ctx context.Context, dir capture.Dir, from, to *wt.Session) {
	for {
		str, err := from.AcceptStream(ctx)
		if err != nil {
			return
		}
		p.streams.Go(func() {
			twin, err := to.OpenStreamSync(ctx)
			if err != nil {
				str.CancelRead(streamCodeAborted)
				str.CancelWrite(streamCodeAborted)
				return
			}
			p.note(dir, "a bidirectional stream other than the control stream: relayed as it comes")
			ch := capture.Channel{Kind: capture.Control}
			var up, down sync.Mutex
			var wg sync.WaitGroup
			wg.Go(func() { _ = p.copyChunks(dir, ch, str, twin, &up) })
			_ = p.copyChunks(1-dir, ch, twin, str, &down)
			wg.Wait()
		})
	}
}

// finish passes on how a read ended: FIN as FIN, a reset with its code,
// anything else as an abort.
func finish(to sendSide, err error) {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		_ = to.Close()
		return
	}
	to.CancelWrite(resetCode(err))
}

// resetCode is the code of a stream reset err carries, or the proxy's
// own abort code.
func resetCode(err error) wt.StreamErrorCode {
	var se *wt.StreamError
	if errors.As(err, &se) {
		return se.ErrorCode
	}
	return streamCodeAborted
}

// isReset says whether err is the peer's reset of a stream.
func isReset(err error) bool {
	var se *wt.StreamError
	return errors.As(err, &se) && se.Remote
}
