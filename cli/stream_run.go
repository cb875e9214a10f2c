package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpscope/mcpscope/internal/plural"
	"github.com/mcpscope/mcpscope/internal/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// gatewayRun is one `mcpscope stream`: the client's stream going up, the
// server's streams coming down, until the server ends what it answers.
type gatewayRun struct {
	f      *runFlags
	sf     *streamFlags
	io     streams
	events chan ws.StreamEvent
	done   chan struct{} // closed when the run ends: the reader stops waiting
	bump   chan struct{} // the upload moved: a sign of life

	started   time.Time  // when the run began, dial included: --max-time counts from it
	id        proto.GUID // the client's stream
	downloads map[proto.GUID]*download
	problems  int
	warnings  warningCap // the problems, said on stderr
	tooMany   bool       // more server streams than maxDownloads were opened
	line      int        // --text: the input line of the last chunk read
}

func newGatewayRun(f *runFlags, sf *streamFlags, io streams) *gatewayRun {
	return &gatewayRun{f: f, sf: sf, io: io, started: time.Now(), events: make(chan ws.StreamEvent, 4), done: make(chan struct{}),
		bump: make(chan struct{}, 1), downloads: make(map[proto.GUID]*download), warnings: warningCap{out: io.diag}}
}

// event hands a stream event from the transport's reader to the run; it
// blocks while the run is behind (back-pressure), never after it ended.
func (g *gatewayRun) event(ev ws.StreamEvent) {
	select {
	case g.events <- ev:
	case <-g.done:
	}
}

// streamEnd is how the server ended what the run waits for.
type streamEnd struct {
	summary json.RawMessage
	err     *proto.Error
}

// run sends the start, uploads, and reads until the server's done or
// error for the client's stream, or until every stream the server opened
// ended after the upload; within --timeout of each sign of life and
// --max-time in all. It returns how the server ended it.
func (g *gatewayRun) run(ctx context.Context, tr *ws.Transport, meta *proto.StreamMeta) (*streamEnd, error) {
	defer close(g.done)
	defer g.closeDownloads()
	defer g.warnings.Flush()
	g.id = proto.NewGUID()
	if meta.CorrelationID == "" {
		meta.CorrelationID = g.id.String()
	}
	up, err := openUpload(g.sf, g.io.in)
	if err != nil {
		return nil, err
	}
	if err := tr.SendStream(ctx, &proto.StreamMessage{Type: proto.StreamStart, ID: g.id, Meta: meta}); err != nil {
		return nil, connectionFailed(err)
	}
	uploaded := make(chan error, 1)
	go func() { uploaded <- g.upload(ctx, tr, up) }()
	idle, hard := time.NewTimer(g.f.timeout), time.NewTimer(max(g.f.maxTime-time.Since(g.started), 0))
	defer idle.Stop()
	defer hard.Stop()
	var end *streamEnd
	upDone := false
	for end == nil || !upDone {
		select {
		case err := <-uploaded:
			if err != nil {
				return nil, err
			}
			upDone, uploaded = true, nil
			if end == nil && g.allDownloadsEnded() {
				end = g.lastOutcome()
			}
		case ev := <-g.events:
			idle.Reset(g.f.timeout)
			if out := g.handle(ev); out != nil {
				end = out
				if out.err != nil {
					upDone = true // an error ends the call, upload or not
				}
			} else if end == nil && upDone && g.allDownloadsEnded() {
				end = g.lastOutcome()
			}
		case <-g.bump:
			idle.Reset(g.f.timeout)
		case <-idle.C:
			return nil, streamTimeout(g.id.String(), g.f.timeout, false)
		case <-hard.C:
			return nil, streamTimeout(g.id.String(), g.f.maxTime, true)
		case <-tr.Done():
			err := tr.Err()
			if err == nil {
				err = errors.New("the gateway closed the connection before the stream ended")
			}
			return nil, connectionFailed(err)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return end, nil
}

// finish prints the server's answer and maps it to the exit status.
func (g *gatewayRun) finish(end *streamEnd) error {
	g.closeDownloads()
	if end.err != nil {
		raw, _ := json.Marshal(end.err)
		if err := writeJSON(g.io.out, raw, g.io.pretty); err != nil {
			return err
		}
		return withExit(ExitRPCError, fmt.Errorf("the stream failed: %d %s", end.err.Code, termtext.Line(end.err.Message)))
	}
	summary := end.summary
	if len(summary) == 0 || string(summary) == "null" {
		summary = json.RawMessage(`{}`)
	}
	if err := writeJSON(g.io.out, summary, g.io.pretty); err != nil {
		return err
	}
	if g.problems > 0 {
		return withExit(ExitProtocol, fmt.Errorf("%w: %s the checks (see the warnings)", errStreamProblem, plural.Count(g.problems, "message failed", "messages failed")))
	}
	return nil
}

// handle takes one event; it returns the streamEnd when the event ends the
// run: a done or an error for the client's stream, an error of any, or
// the done of the last open server stream once the upload is over.
func (g *gatewayRun) handle(ev ws.StreamEvent) *streamEnd {
	if ev.Problem != nil {
		g.problems++
		g.warnings.Warn("problems with gateway stream messages", func() string { return termtext.Line(ev.Problem.Error()) })
	}
	d := g.downloads[ev.ID]
	switch ev.Type {
	case proto.StreamStart:
		if d == nil {
			if d = g.openDownload(ev); d != nil {
				g.downloads[ev.ID] = d
			}
		}
	case proto.StreamChunk:
		if d == nil && ev.ID == g.id { // the server answers on the client's stream
			if d = g.openDownload(ev); d != nil {
				g.downloads[ev.ID] = d
			}
		}
		if d != nil {
			d.write(ev)
		}
		ev.Release() // written: the transport may read a later chunk into its buffer
	case proto.StreamDone:
		if d != nil {
			d.end(ev.Summary)
		}
		if ev.ID == g.id {
			return &streamEnd{summary: ev.Summary}
		}
	case proto.StreamError:
		if d != nil {
			d.end(nil)
		}
		return &streamEnd{err: ev.Err}
	}
	return nil
}

// allDownloadsEnded reports whether the server opened streams and all of
// them ended.
func (g *gatewayRun) allDownloadsEnded() bool {
	for _, d := range g.downloads {
		if !d.ended {
			return false
		}
	}
	return len(g.downloads) > 0
}

// lastOutcome is the summary of the server stream that ended last.
func (g *gatewayRun) lastOutcome() *streamEnd {
	var last *download
	for _, d := range g.downloads {
		if last == nil || d.endedAt.After(last.endedAt) {
			last = d
		}
	}
	return &streamEnd{summary: last.summary}
}

// upload sends the chunks of the upload, then the client's done.
func (g *gatewayRun) upload(ctx context.Context, tr *ws.Transport, up io.ReadCloser) error {
	var chunks, total int64
	if up != nil {
		defer up.Close()
		send := func(payload []byte) error {
			if g.sf.text {
				return tr.SendStream(ctx, &proto.StreamMessage{Type: proto.StreamChunk, ID: g.id, Index: &chunks, Data: payload})
			}
			return tr.SendChunk(ctx, g.id, chunks, payload)
		}
		next := g.chunker(up)
		for {
			payload, err := next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return fmt.Errorf("reading the upload: %w", err)
			}
			if g.sf.text && !json.Valid(payload) { // the input's fault, not the connection's
				return usagef("--text: input line %d is not a JSON value: %s", g.line, termtext.LineMax(string(payload), 80))
			}
			if err := send(payload); err != nil {
				return connectionFailed(err)
			}
			chunks++
			total += int64(len(payload))
			select {
			case g.bump <- struct{}{}:
			default:
			}
		}
	}
	summary, _ := json.Marshal(map[string]int64{"totalChunks": chunks, "totalBytes": total})
	if err := tr.SendStream(ctx, &proto.StreamMessage{Type: proto.StreamDone, ID: g.id, Summary: summary}); err != nil {
		return connectionFailed(err)
	}
	return nil
}

// chunker returns the reader of the upload's chunks: lines with --text
// (blank lines skipped), pieces of --chunk-size bytes otherwise.
func (g *gatewayRun) chunker(up io.Reader) func() ([]byte, error) {
	if g.sf.text {
		sc := bufio.NewScanner(up)
		sc.Buffer(make([]byte, 0, 64<<10), max(g.sf.chunkSize, 1<<20))
		return func() ([]byte, error) {
			for sc.Scan() {
				g.line++
				if line := sc.Bytes(); len(bytes.TrimSpace(line)) > 0 {
					return append([]byte(nil), line...), nil
				}
			}
			if err := sc.Err(); err != nil {
				return nil, err
			}
			return nil, io.EOF
		}
	}
	buf := make([]byte, g.sf.chunkSize)
	return func() ([]byte, error) {
		n, err := io.ReadFull(up, buf)
		switch {
		case n > 0:
			return buf[:n], nil
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, io.EOF
		}
		return nil, err
	}
}
