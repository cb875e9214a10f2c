package demohttp

import (
	"context"
	"errors"
	"html"
	"net/http"
	"strings"
	"time"
)

// end is why a writer stopped.
type end int

const (
	endFinished end = iota // the answer was written
	endCut                 // misbehave cut_sse ended the response
	endGone                // the client went, or a write failed
	endClosed              // the stream was closed
	endReplaced            // a resuming connection took the stream over
)

// writer writes a stream to one HTTP response.
type writer struct {
	s         *stream
	gen       uint64
	w         http.ResponseWriter
	rc        *http.ResponseController
	h         *Handler
	header    func(http.Header) // more response headers (Mcp-Session-Id), at the commit
	commitNow bool              // write the headers at once (GET), not with the first item
	committed bool
	cut       cutKind // how the response must end (endCut)
}

// response is how a stream's HTTP response starts.
type response struct {
	header    func(http.Header) // more headers (Mcp-Session-Id)
	commitNow bool              // headers at once (GET streams), else with the first item
}

// writeStream makes w the writer of s (generation gen, see attach) and
// writes until the stream's answer, a cut, the client going or the stream
// closing. An abrupt cut resets the connection (it panics with
// http.ErrAbortHandler, which net/http expects).
func (h *Handler) writeStream(ctx context.Context, w http.ResponseWriter, s *stream, gen uint64, resp response) end {
	wr := &writer{s: s, gen: gen, w: w, rc: http.NewResponseController(w), h: h, header: resp.header, commitNow: resp.commitNow}
	e := wr.run(ctx)
	switch {
	case e == endClosed && !wr.committed:
		// A stream closed before it said anything (a call cancelled, a
		// session deleted): an empty answer rather than nothing.
		_ = wr.commit(s.next(gen).format, 0)
	case e == endCut && wr.cut == cutAbrupt:
		panic(http.ErrAbortHandler)
	}
	return e
}

// run is the writer's loop.
func (wr *writer) run(ctx context.Context) end {
	var tick <-chan time.Time
	stop := func() {}
	defer func() { stop() }()
	for {
		st := wr.s.next(wr.gen)
		switch {
		case st.replaced:
			wr.s.signal() // the wake this writer took may have been the new writer's
			return endReplaced
		case st.ok:
			if err := wr.write(st.item, st); err != nil {
				wr.h.log.Debug("stream write failed", "err", err)
				wr.s.detach(wr.gen)
				return endGone
			}
			if !wr.s.advance(wr.gen, st.item) {
				wr.s.signal()
				return endReplaced
			}
			if st.item.final {
				return endFinished
			}
			if st.item.cut != cutNone {
				wr.cut = st.item.cut
				wr.s.detach(wr.gen)
				return endCut
			}
			continue
		case st.closed:
			return endClosed
		}
		if st.heartbeat && tick == nil {
			tick, stop = wr.h.newTicker(wr.h.opts.Heartbeat)
		}
		if (wr.commitNow || st.eager) && !wr.committed {
			if err := wr.commit(st.format, 0); err != nil {
				wr.s.detach(wr.gen)
				return endGone
			}
		}
		select {
		case <-st.wake:
		case <-ctx.Done():
			wr.s.detach(wr.gen)
			return endGone
		case <-tick:
			if err := wr.send(st, comment("heartbeat")); err != nil {
				wr.s.detach(wr.gen)
				return endGone
			}
		}
	}
}

// commit writes the response headers (and, on a stream with ids, the
// priming event: the id to resume from, an empty data field, the retry).
// f is the stream's format; status that of a one-body answer.
func (wr *writer) commit(f format, status int) error {
	wr.committed = true
	wr.s.markCommitted()
	hd := wr.w.Header()
	if wr.header != nil {
		wr.header(hd)
	}
	if status == 0 {
		status = http.StatusOK
	}
	switch f {
	case formatJSON:
		hd.Set("Content-Type", "application/json")
	case formatHTML:
		hd.Set("Content-Type", "text/html; charset=utf-8")
	default:
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("Cache-Control", "no-cache")
		hd.Set("X-Accel-Buffering", "no")
		wr.w.WriteHeader(status)
		if wr.s.cfg.ids {
			st := wr.s.next(wr.gen)
			prime := sseEvent{id: eventID(wr.s.cfg.num, st.written), retry: wr.h.opts.Retry, data: []byte{}}
			return wr.flushWrite(prime.appendTo(nil))
		}
		return wr.flush()
	}
	wr.w.WriteHeader(status)
	return nil
}

// send writes bytes of an SSE stream, committing first.
func (wr *writer) send(st writeState, b []byte) error {
	if !wr.committed {
		if err := wr.commit(st.format, 0); err != nil {
			return err
		}
	}
	return wr.flushWrite(b)
}

// write writes one item as the stream's format says.
func (wr *writer) write(it item, st writeState) error {
	switch st.format {
	case formatJSON:
		if err := wr.commit(formatJSON, it.status); err != nil {
			return err
		}
		return wr.flushWrite(it.data)
	case formatHTML:
		if err := wr.commit(formatHTML, 0); err != nil {
			return err
		}
		return wr.flushWrite([]byte(htmlPage(it.data)))
	}
	if it.comment != "" {
		return wr.send(st, comment(it.comment))
	}
	if it.huge > 0 {
		return wr.sendHuge(st, it)
	}
	ev := sseEvent{name: it.name, data: it.data, noData: it.noData}
	if ev.name == "" {
		ev.name = wr.s.cfg.name
	}
	if it.seq > 0 {
		ev.id = eventID(wr.s.cfg.num, it.seq)
	}
	if it.retry {
		ev.retry = wr.h.opts.Retry
	}
	return wr.send(st, ev.appendTo(nil))
}

// flushWrite writes b and flushes it to the client.
func (wr *writer) flushWrite(b []byte) error {
	if err := wr.writeRaw(b); err != nil {
		return err
	}
	return wr.flush()
}

// writeRaw writes b within the write timeout, without flushing.
func (wr *writer) writeRaw(b []byte) error {
	_ = wr.rc.SetWriteDeadline(time.Now().Add(wr.h.opts.WriteTimeout))
	_, err := wr.w.Write(b)
	return err
}

// flush sends what is buffered; a writer that cannot flush is fine.
func (wr *writer) flush() error {
	if err := wr.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// htmlPage is the text/html page of misbehave wrong_content_type: the
// JSON-RPC answer, escaped, inside a page.
func htmlPage(answer []byte) string {
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html><head><title>mcpscope demo</title></head><body>\n")
	b.WriteString("<p>misbehave wrong_content_type: this answer is text/html on purpose.</p>\n<pre>")
	b.WriteString(html.EscapeString(string(answer)))
	b.WriteString("</pre>\n</body></html>\n")
	return b.String()
}
