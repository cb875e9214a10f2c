package gatewaystream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// Run is one gateway stream run: the client's stream going up, the
// server's streams coming down, until the server ends what it answers.
type Run struct {
	o      Options
	events chan ws.StreamEvent
	done   chan struct{} // closed when the run ends: the reader stops waiting
	bump   chan struct{} // the upload moved: a sign of life

	started   time.Time    // when the run began, dial included: --max-time counts from it
	id        gateway.GUID // the client's stream
	downloads map[gateway.GUID]*download
	problems  int
	tooMany   bool // more server streams than MaxStreams were opened
	line      int  // Text: the input line of the last chunk read
}

// New returns a run of o; its max time counts from now, so that the dial
// is part of it.
func New(o Options) *Run {
	if o.ChunkSize <= 0 {
		o.ChunkSize = DefaultChunkSize
	}
	if o.Println == nil {
		o.Println = func(string) {}
	}
	if o.Warnings == nil {
		o.Warnings = quiet{}
	}
	return &Run{o: o, started: time.Now(), events: make(chan ws.StreamEvent, 4), done: make(chan struct{}),
		bump: make(chan struct{}, 1), downloads: make(map[gateway.GUID]*download)}
}

// Event hands a stream event from the transport's reader to the run (the
// transport's OnStream); it blocks while the run is behind
// (back-pressure), never after the run ended.
func (g *Run) Event(ev ws.StreamEvent) {
	select {
	case g.events <- ev:
	case <-g.done:
	}
}

// End is how the server ended what the run waits for: the done summary
// of the stream, or an error.
type End struct {
	Summary json.RawMessage
	Err     *jsonrpc.Error
}

// Run sends the start, uploads, and reads until the server's done or
// error for the client's stream, or until every stream the server opened
// ended after the upload; within Timeout of each sign of life and MaxTime
// in all. It returns how the server ended it.
func (g *Run) Run(ctx context.Context, tr *ws.Transport, meta *gateway.StreamMeta) (*End, error) {
	defer close(g.done)
	defer g.CloseDownloads()
	defer g.o.Warnings.Flush()
	g.id = gateway.NewGUID()
	if meta.CorrelationID == "" {
		meta.CorrelationID = g.id.String()
	}
	up, err := g.openUpload()
	if err != nil {
		return nil, err
	}
	if err := tr.SendStream(ctx, &gateway.StreamMessage{Type: gateway.StreamStart, ID: g.id, Meta: meta}); err != nil {
		return nil, &Failure{Kind: Connection, Err: err}
	}
	uploaded := make(chan error, 1)
	go func() { uploaded <- g.upload(ctx, tr, up) }()
	idle, hard := time.NewTimer(g.o.Timeout), time.NewTimer(max(g.o.MaxTime-time.Since(g.started), 0))
	defer idle.Stop()
	defer hard.Stop()
	var end *End
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
			idle.Reset(g.o.Timeout)
			if out := g.handle(ev); out != nil {
				end = out
				if out.Err != nil {
					upDone = true // an error ends the call, upload or not
				}
			} else if end == nil && upDone && g.allDownloadsEnded() {
				end = g.lastOutcome()
			}
		case <-g.bump:
			idle.Reset(g.o.Timeout)
		case <-idle.C:
			return nil, timeout(g.id.String(), g.o.Timeout, false)
		case <-hard.C:
			return nil, timeout(g.id.String(), g.o.MaxTime, true)
		case <-tr.Done():
			err := tr.Err()
			if err == nil {
				err = errors.New("the gateway closed the connection before the stream ended")
			}
			return nil, &Failure{Kind: Connection, Err: err}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return end, nil
}

// handle takes one event; it returns the End when the event ends the
// run: a done or an error for the client's stream, an error of any, or
// the done of the last open server stream once the upload is over.
func (g *Run) handle(ev ws.StreamEvent) *End {
	if ev.Problem != nil {
		g.problems++
		g.o.Warnings.Warn("problems with gateway stream messages", func() string { return termtext.Line(ev.Problem.Error()) })
	}
	d := g.downloads[ev.ID]
	switch ev.Type {
	case gateway.StreamStart:
		if d == nil {
			if d = g.openDownload(ev); d != nil {
				g.downloads[ev.ID] = d
			}
		}
	case gateway.StreamChunk:
		if d == nil && ev.ID == g.id { // the server answers on the client's stream
			if d = g.openDownload(ev); d != nil {
				g.downloads[ev.ID] = d
			}
		}
		if d != nil {
			d.write(ev)
		}
		ev.Release() // written: the transport may read a later chunk into its buffer
	case gateway.StreamDone:
		if d != nil {
			d.end(ev.Summary)
		}
		if ev.ID == g.id {
			return &End{Summary: ev.Summary}
		}
	case gateway.StreamError:
		if d != nil {
			d.end(nil)
		}
		return &End{Err: ev.Err}
	}
	return nil
}

// allDownloadsEnded reports whether the server opened streams and all of
// them ended.
func (g *Run) allDownloadsEnded() bool {
	for _, d := range g.downloads {
		if !d.ended {
			return false
		}
	}
	return len(g.downloads) > 0
}

// lastOutcome is the summary of the server stream that ended last.
func (g *Run) lastOutcome() *End {
	var last *download
	for _, d := range g.downloads {
		if last == nil || d.endedAt.After(last.endedAt) {
			last = d
		}
	}
	return &End{Summary: last.summary}
}

// upload sends the chunks of the upload, then the client's done.
func (g *Run) upload(ctx context.Context, tr *ws.Transport, up io.ReadCloser) error {
	var chunks, total int64
	if up != nil {
		defer up.Close()
		send := func(payload []byte) error {
			if g.o.Text {
				return tr.SendStream(ctx, &gateway.StreamMessage{Type: gateway.StreamChunk, ID: g.id, Index: &chunks, Data: payload})
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
			if g.o.Text && !json.Valid(payload) { // the input's fault, not the connection's
				return &Failure{Kind: Input, Err: fmt.Errorf("--text: input line %d is not a JSON value: %s", g.line, termtext.LineMax(string(payload), 80))}
			}
			if err := send(payload); err != nil {
				return &Failure{Kind: Connection, Err: err}
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
	if err := tr.SendStream(ctx, &gateway.StreamMessage{Type: gateway.StreamDone, ID: g.id, Summary: summary}); err != nil {
		return &Failure{Kind: Connection, Err: err}
	}
	return nil
}

// chunker returns the reader of the upload's chunks: lines with Text
// (blank lines skipped), pieces of ChunkSize bytes otherwise.
func (g *Run) chunker(up io.Reader) func() ([]byte, error) {
	if g.o.Text {
		sc := bufio.NewScanner(up)
		sc.Buffer(make([]byte, 0, 64<<10), max(g.o.ChunkSize, 1<<20))
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
	buf := make([]byte, g.o.ChunkSize)
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
