package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// batch is how many frames the hub takes from the store at a time for a
// viewer.
const batch = 256

// viewerConn is the hub's side of one viewer: pump sends it the session,
// readCommands carries out what it asks.
type viewerConn struct {
	hub      *Hub
	conn     net.Conn
	out      *lineWriter
	wake     chan struct{} // the steering changed
	gone     chan struct{} // the viewer left, or was dropped
	goneOnce sync.Once
}

func newViewerConn(h *Hub, c net.Conn) *viewerConn {
	return &viewerConn{hub: h, conn: c, out: &lineWriter{w: c}, wake: make(chan struct{}, 1), gone: make(chan struct{})}
}

func (v *viewerConn) leave() { v.goneOnce.Do(func() { close(v.gone) }) }

// pump sends the viewer the recording's header, every frame the store
// holds and every new one, at the viewer's pace, and the steering in
// force whenever it changes. A viewer that fell behind the store skips
// ahead and is told.
func (v *viewerConn) pump() {
	defer v.hub.wg.Done()
	s := v.hub.sess
	hd := s.Header()
	w, _ := recordings.NewWriter(v.out, hd, viewerRedaction(s))
	defer func() {
		_ = v.conn.Close()
		_ = w.Close()
		v.leave()
		v.hub.leave(v)
	}()
	sub, cancel := s.Store().Subscribe()
	defer cancel()
	next := s.Store().Stats().FirstSeq // what the store holds; no earlier frame is missed
	if next > 1 {
		w.Append(joinedMark(next - 1)) // so that an answer to a request let go is no surprise
	}
	sent := ^uint64(0) // the steering's generation last sent
	notes := newNotesTold()
	for {
		n, held := v.sendBatch(w, &next)
		if g := v.hub.gen.Load(); g != sent || held {
			sent = g
			if v.out.send(hubLine{K: hubKind, State: v.hub.state()}) != nil {
				return
			}
		}
		if w.Err() != nil {
			return
		}
		select {
		case <-v.gone:
			return
		case <-v.hub.closing:
			v.finish(w, &next, notes)
			return
		default:
		}
		if n > 0 {
			continue
		}
		notes.tell(w, s.Store())
		select {
		case <-sub:
		case <-v.wake:
		case <-v.gone:
			return
		case <-s.Done():
			v.finish(w, &next, notes)
			return
		case <-v.hub.closing:
			v.finish(w, &next, notes)
			return
		}
	}
}

// finish sends what the viewer has not had yet, within closeGrace, and
// ends its stream: the end line when the session ended, a bye when the
// proxy stops publishing a session that goes on.
func (v *viewerConn) finish(w *recordings.Writer, next *uint64, notes *notesTold) {
	_ = v.conn.SetWriteDeadline(time.Now().Add(closeGrace))
	for {
		n, _ := v.sendBatch(w, next)
		if n == 0 || w.Err() != nil {
			break
		}
	}
	notes.tell(w, v.hub.sess.Store())
	select {
	case <-v.hub.sess.Done():
		if err := v.hub.sess.Err(); err != nil {
			_ = w.Close()
			_ = v.out.send(hubLine{K: hubKind, Bye: "the session ended: " + err.Error()})
		}
	default:
		_ = w.Close()
		_ = v.out.send(hubLine{K: hubKind, Bye: "the proxy stopped publishing this session"})
	}
	_ = w.Close() // the end line, when not written yet
}

// sendBatch hands the viewer's Writer up to batch frames from *next on,
// saying how many, and whether one of them changed the paused messages.
func (v *viewerConn) sendBatch(w *recordings.Writer, next *uint64) (n int, held bool) {
	frames := v.hub.sess.Store().Window(*next, batch)
	for _, f := range frames {
		if f.Seq > *next {
			w.Append(missedMark(f.Seq - *next))
		}
		w.Append(f)
		*next = f.Seq + 1
		if f.Chan.Kind == capture.Proxy {
			if m, ok := proxy.ParseMark(f); ok && changesHeld(m.What) {
				held = true
			}
		}
	}
	return len(frames), held
}

// changesHeld says whether a mark of this kind changes the paused
// messages.
func changesHeld(what string) bool {
	switch what {
	case proxy.WhatPaused, proxy.WhatForwarded, proxy.WhatEdited, proxy.WhatDropped, proxy.WhatReleased:
		return true
	}
	return false
}

// missedNote is the Note of a WhatMissed mark; its number is the count.
const missedNote = "%d frames skipped: this viewer fell behind the session"

// missedMark is the mark a viewer that skipped n frames is given.
func missedMark(n uint64) *capture.Frame {
	f := proxy.Mark{What: proxy.WhatMissed, Note: fmt.Sprintf(missedNote, n)}.Frame(capture.In, "")
	f.Time = time.Now()
	return f
}

// joinedNote is the Note of a WhatJoined mark; its number is the count.
const joinedNote = "%d earlier frames were let go before this viewer joined"

// joinedMark is the mark a viewer is given first when the session let
// its first n frames go before the viewer joined.
func joinedMark(n uint64) *capture.Frame {
	f := proxy.Mark{What: proxy.WhatJoined, Note: fmt.Sprintf(joinedNote, n)}.Frame(capture.In, "")
	f.Time = time.Now()
	return f
}

// readCommands reads the viewer's commands and answers each; a line that
// is not a command is answered with a bye and the viewer is dropped.
func (v *viewerConn) readCommands() {
	defer v.hub.wg.Done()
	defer v.leave()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-v.hub.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	br := bufio.NewReaderSize(v.conn, 64<<10)
	for {
		b, err := readLine(br, MaxCommandLine)
		if errors.Is(err, errLineTooLong) {
			v.drop(fmt.Errorf("a command is at most %d bytes", MaxCommandLine))
			return
		}
		if err != nil {
			return // the viewer left
		}
		if len(b) == 0 {
			continue
		}
		c, err := decodeCommand(b)
		if err != nil {
			v.drop(err)
			return
		}
		if v.out.send(v.hub.do(ctx, c)) != nil {
			return
		}
	}
}

// drop tells the viewer why it is dropped, and drops it.
func (v *viewerConn) drop(why error) {
	_ = v.conn.SetWriteDeadline(time.Now().Add(closeGrace))
	_ = v.out.send(hubLine{K: hubKind, Bye: why.Error()})
	_ = v.conn.Close()
}

// errLineTooLong says a line is longer than its bound.
var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline, of at most max bytes.
// Input that ends inside a line is io.ErrUnexpectedEOF.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max+1 {
			return nil, errLineTooLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF) && len(buf) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}
