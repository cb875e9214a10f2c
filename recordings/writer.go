package recordings

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	segjson "github.com/segmentio/encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// FlushEvery is the longest a captured frame waits in memory before it is
// written to the file; a control message is written at once.
const FlushEvery = 100 * time.Millisecond

// Options says how a Writer records.
type Options struct {
	// NoRedact keeps credentials (--no-redact). By default the values of
	// secret JSON members and every Secrets value are masked, their
	// length kept visible.
	NoRedact bool
	// Secrets are values masked wherever they appear in captured bytes:
	// the values of --header and --env flags whose names say auth, token,
	// key, secret or cookie.
	Secrets []string
	// SecretHeaders are header names (--header flags whose names say
	// auth, token, key, secret or cookie) whose values are masked in every
	// captured header line, whatever their length.
	SecretHeaders []string
	// StreamMax is how many payload bytes of one stream are kept whole;
	// past it, totals and the last 1 MiB. Default DefaultStreamMax.
	StreamMax int64

	// Number says the Writer numbers the frames itself (seq 1, 2, …):
	// a session without a Store (the headless commands) gives none, and
	// an SSE event without one points at the last frame of its
	// connection.
	Number bool
	// Clock gives the time of the records that are not frames (marks,
	// SSE events, the end line); frames carry their own. Default time.Now.
	Clock func() time.Time
	// Stopped, when set, is told once, as it happens, that a write error
	// (a full disk) stopped the recording; the session goes on. It runs
	// outside the Writer's locks (it may call Close) and may still be
	// running when Close returns.
	Stopped func(error)

	flushEvery time.Duration // tests: FlushEvery when zero
}

// Writer appends what a session captures to a recording. It is a capture
// Sink that also takes stream marks, labels and SSE stream events, so it is
// teed beside the session's Store (after it, so that each frame's Seq is
// set). Every method is safe for concurrent use; a write error stops the
// recording (Err says why) and never the session.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	file    *os.File // when the Writer owns a file: Sync and Close
	path    string
	queue   []queued // records not encoded yet, in the order they came
	spareQ  []queued // the queue the file writer hands back
	queued  int      // bytes of the frames in queue
	io      sync.Mutex
	enc     *segjson.Encoder // under io: encodes into pend
	pend    bytes.Buffer     // under io: whole lines not yet handed to the file
	built   builtLine        // under io: where a frame's line is built
	wake    chan struct{}    // a control message waits in queue
	every   time.Duration
	clock   func() time.Time
	err     error
	closed  bool
	red     *redactor
	caps    streamCaps
	frames  int64
	written bool              // the header reached the file
	lastOf  map[string]uint64 // with Number: the seq of each connection's last frame; nil without
	stopped func(error)
	holds   atomic.Int32 // Hold calls not Released yet
	owed    atomic.Bool  // a control message appended while held waits for a wake
	stop    chan struct{}
	done    chan struct{}

	unencoded    int   // under io: lines dropped because they could not be encoded
	unencodedErr error // under io: why the first of them could not
}

var (
	_ capture.Releaser = (*Writer)(nil)
	_ capture.Tap      = (*Writer)(nil)
)

// Create creates the recording file path (readable by its owner only:
// it holds whatever the server said) and writes its header.
func Create(path string, h Header, o Options) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the recording: %w", err)
	}
	w, err := NewWriter(f, h, o)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	w.file, w.path = f, path
	return w, nil
}

// NewWriter writes a recording to w, starting with its header. Close
// flushes it and stops the flusher; it closes w only when Create opened it.
// A write error, the header's included, stops the recording and not the
// caller: Err and Close say why, and the error returned is always nil.
func NewWriter(w io.Writer, h Header, o Options) (*Writer, error) {
	if o.StreamMax <= 0 {
		o.StreamMax = DefaultStreamMax
	}
	h.Format, h.Version, h.StreamMax = Format, Version, o.StreamMax
	h.Redaction = RedactDefault
	if o.NoRedact {
		h.Redaction = RedactNone
	}
	red := newRedactor(o)
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	wr := &Writer{w: w, red: red, wake: make(chan struct{}, 1), every: cmp.Or(o.flushEvery, FlushEvery), clock: o.Clock, stopped: o.Stopped, stop: make(chan struct{}), done: make(chan struct{})}
	if wr.clock == nil {
		wr.clock = time.Now
	}
	if o.Number {
		wr.lastOf = map[string]uint64{}
	}
	wr.caps = streamCaps{max: o.StreamMax, recs: map[capture.StreamKey]*streamCap{}}
	wr.enc = segjson.NewEncoder(&wr.pend)
	wr.enc.SetEscapeHTML(false)
	wr.mu.Lock()
	wr.writeLocked(h)
	wr.mu.Unlock()
	_ = wr.drain() // a file that takes nothing (a full disk) stops the recording only
	go wr.flusher()
	return wr, nil
}

// Path returns the file Create created, or "".
func (w *Writer) Path() string { return w.path }

// Err returns the error that stopped the recording, or nil.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Empty reports that not even the header reached the file (it filled at
// once): what is there is no recording.
func (w *Writer) Empty() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.written
}

// Frames returns how many frames have been recorded.
func (w *Writer) Frames() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.frames
}

// Close writes the tails of capped streams and the end line, flushes, and
// closes the file Create opened. It returns the first write error.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return w.err
	}
	w.caps.report(w, true)
	w.writeLocked(line{K: kindEnd, T: w.clock().UnixNano()})
	w.closed = true
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	_ = w.drain()
	w.io.Lock()
	unencoded, unencodedErr := w.unencoded, w.unencodedErr
	w.io.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.file != nil {
		if err := w.file.Close(); err != nil && w.err == nil {
			w.err = fmt.Errorf("closing the recording: %w", err)
		}
	}
	if w.err == nil && unencoded > 0 {
		return fmt.Errorf("%s of the recording could not be encoded and %s left out (the first: %w)",
			plural.Count(unencoded, "line", "lines"), plural.Word(unencoded, "was", "were"), unencodedErr)
	}
	return w.err
}

// ReleasesUnheld is true: Append keeps a copy of the bytes of a frame
// without a message (a chunk, whose buffer a transport may reuse), and of
// nothing else that changes.
func (w *Writer) ReleasesUnheld() bool { return true }

// Append records f. It only queues f: the file writer encodes the queue
// and writes it in one write, waking at once for a control message, and
// for anything else within FlushEvery or once enough is queued.
func (w *Writer) Append(f *capture.Frame) uint64 {
	if f == nil {
		return 0
	}
	w.mu.Lock()
	if w.closed || w.err != nil {
		w.mu.Unlock()
		return 0
	}
	if f.Chan.Kind == capture.Stream && w.caps.past(f) {
		w.mu.Unlock()
		return 0
	}
	q := queued{f: *f, keep: w.caps.cut(w, f)}
	if f.Msg == nil {
		// A transport may reuse the buffer of a chunk once Append returns
		// (ReleasesUnheld); one that carries a message hands its bytes to
		// the session too, and never does.
		q.f.Raw = bytes.Clone(f.Raw)
	}
	w.frames++
	if w.lastOf != nil {
		q.seq = uint64(w.frames)
		if len(w.lastOf) >= maxStreamCaps {
			clear(w.lastOf)
		}
		w.lastOf[f.Conn] = q.seq
	}
	wake := w.queueLocked(q)
	w.mu.Unlock()
	switch {
	case wake == queueFull:
		_ = w.drain() // the disk is slower than the session: wait for it
	case f.Chan.Kind == capture.Control:
		w.wakeFor()
	case wake == queueWake:
		w.nudge()
	}
	return 0
}

// Note records a note of the transport: a stream's state, announced size
// or label, or an SSE stream's start, event or end.
func (w *Writer) Note(e capture.Event) { capture.Dispatch(w, e) }

// MarkStream records a stream's state.
func (w *Writer) MarkStream(key capture.StreamKey, state capture.StreamState, err error) {
	l := keyLine(kindMark, key)
	l.State = streamStates.of[state]
	if err != nil {
		l.Err = err.Error()
	}
	w.record(l, func(*line) {
		if state != capture.StreamOpen {
			w.caps.end(w, key)
		}
	})
}

// SetStreamSize records the size the peer announced for a stream.
func (w *Writer) SetStreamSize(key capture.StreamKey, size int64) {
	l := keyLine(kindSize, key)
	l.Total = size
	w.record(l, nil)
}

// LabelStream records what a stream is: its words, and its own id and
// opener when it has an id.
func (w *Writer) LabelStream(key capture.StreamKey, label capture.StreamLabel) {
	l := keyLine(kindLabel, key)
	l.Label, l.Stream = label.Text, label.ID
	if label.ID != "" {
		l.Dir = label.Opener.String()
	}
	w.record(l, nil)
}

// OpenSSE records the start of an SSE stream's body.
func (w *Writer) OpenSSE(conn string, s capture.SSEStart) {
	w.record(line{K: kindSSEOpen, Conn: conn, Kind: sseKinds.of[s.Kind], Method: s.Method, ReqID: s.ReqID, Of: s.Of, After: s.After}, nil)
}

// SSEEvent records one event of an SSE stream; seq is the live store's
// Seq of its frame (0: the last frame of conn written).
func (w *Writer) SSEEvent(conn string, seq uint64, size int64, lastID string) {
	l := line{K: kindSSEEvent, Conn: conn, Seq: seq, Total: size, LastID: lastID}
	w.record(l, func(l *line) {
		if w.lastOf != nil && seq == 0 {
			l.Seq = w.lastOf[conn]
		}
	})
}

// EndSSE records how an SSE stream ended.
func (w *Writer) EndSSE(conn string, state capture.SSEState, why string) {
	w.record(line{K: kindSSEEnd, Conn: conn, State: sseStates.of[state], Why: why}, nil)
}

// Link records the transport, the protocol era and the protocol version
// once the session knows them (after the handshake).
func (w *Writer) Link(transport, era, protocol string) {
	w.record(line{K: kindLink, Transport: transport, Era: era, Protocol: protocol}, nil)
}

// record stamps and writes a non-frame line, running after (under the
// lock) on it first.
func (w *Writer) record(l line, after func(l *line)) {
	l.T = w.clock().UnixNano()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.err != nil {
		return
	}
	if after != nil {
		after(&l)
	}
	for _, t := range []*string{&l.Err, &l.Label, &l.Stream, &l.Why, &l.LastID, &l.After, &l.Of, &l.Method, &l.ReqID} {
		*t = w.red.text(*t)
	}
	w.writeLocked(l)
}

func keyLine(kind string, key capture.StreamKey) line {
	return line{K: kind, Conn: key.Conn, Req: key.ReqID, Tag: key.Tag}
}

// writeLocked queues v, to be encoded as one line.
func (w *Writer) writeLocked(v any) {
	if w.err != nil {
		return
	}
	w.queue = append(w.queue, queued{v: v})
}

// encode appends v to pend as one line; a value that cannot be encoded is
// dropped, not the file, and Close says so.
func (w *Writer) encode(v any) {
	if err := w.enc.Encode(v); err != nil {
		w.unencoded++
		if w.unencodedErr == nil {
			w.unencodedErr = err
		}
	}
}

// maxFrameKeep is the most bytes of one frame a recording keeps (its
// true size is recorded beside them): escaped, the line stays within
// MaxLine.
const maxFrameKeep = 64 << 20

// maxBodyKeep is the longest message body a frame line keeps beside its
// bytes, what a Reader takes of it. Tests lower it.
var maxBodyKeep = maxFrameKeep

// ErrStopped is wrapped by Err when the recording stopped on a write error.
var ErrStopped = errors.New("the recording stopped")

// builtLine is the memory a Writer builds each frame's line in, reused
// from frame to frame by the file writer: a line is encoded as soon as it is
// built, and forget lets go of what it referred to.
type builtLine struct {
	line        line
	msg         [2]int
	text, mtext string
	fields      []fieldLine
	body        []byte // where a message without bytes of its own is encoded
}

// encodeMessage encodes m, which came with no bytes of its own, as
// encoding/json does, into memory reused from line to line; nil when it
// cannot be encoded. A copy is encoded: AppendJSON sets an empty version,
// and the message is its sender's.
func (b *builtLine) encodeMessage(m *jsonrpc.Message) []byte {
	c := *m
	body, err := c.AppendJSON(b.body[:0])
	if err != nil {
		return nil
	}
	b.body = body
	return body
}

// forget drops the references of the line last built, keeping the room
// of its annotations unless a huge frame grew it.
func (b *builtLine) forget() {
	b.line, b.text, b.mtext = line{}, "", ""
	clear(b.fields[:cap(b.fields)])
	if cap(b.fields) > 1024 {
		b.fields = nil
	}
	if cap(b.body) > 64<<10 {
		b.body = nil
	}
}

// frameLine turns f into its line, built in b; keep is how many of its
// bytes to write; red, when set, masks the credentials in them.
func frameLine(f *capture.Frame, keep int, red *redactor, b *builtLine) *line {
	b.line = line{K: kindFrame, T: f.Time.UnixNano(), Seq: f.Seq, Dir: f.Dir.String(), Conn: f.Conn, Ch: channelNames.of[f.Chan.Kind]}
	l := &b.line
	l.Req, l.Tag, l.DCh = f.Chan.ReqID, f.Chan.Tag, f.Chan.Ch
	raw := f.Raw[:min(keep, len(f.Raw), maxFrameKeep)]
	if m := f.Msg; m != nil && len(m.Raw) > 0 {
		// Found before masking: the masks keep every length.
		if i := bytes.Index(raw, m.Raw); i >= 0 {
			b.msg = [2]int{i, len(m.Raw)}
			l.Msg = b.msg[:]
		}
	}
	if red != nil {
		// The whole frame is masked before it is cut: a secret across
		// the cut leaves no prefix.
		raw = red.redact(f.Raw, true)[:len(raw)]
	}
	setBytes(raw, &b.text, &l.Text, &l.B64)
	if size := max(f.Size, len(f.Raw)); size > len(raw) {
		l.Size = size
	}
	if f.Enc != proto.EncJSON {
		l.Enc = encodingNames.of[f.Enc]
	}
	l.Fields = keepFields(b.fields[:0], f.Fields, raw, max(f.Size, len(f.Raw)), red)
	if l.Fields != nil {
		b.fields = l.Fields[:0]
	}
	if f.Err != nil {
		l.Err = red.text(f.Err.Error()) // an error may quote the bytes it could not decode
	}
	if m := f.Msg; m != nil {
		if m.Violation != nil {
			l.Viol = red.text(m.Violation.Error())
		}
		if l.Msg == nil { // not a range of the bytes: the body is kept beside them
			body := m.Raw
			if len(body) == 0 { // a message this side built: its encoding is most often the frame's bytes
				body = b.encodeMessage(m)
				if f.Enc == proto.EncJSON && len(body) > 0 {
					if i := bytes.Index(f.Raw[:len(raw)], body); i >= 0 {
						b.msg = [2]int{i, len(body)}
						l.Msg = b.msg[:]
						return l
					}
				}
			}
			if len(body) > maxBodyKeep {
				return l // more than a reader takes (readKeep): the kept bytes stand alone
			}
			if f.Enc != proto.EncJSON && json.Valid(body) {
				l.MEnc = encodingNames.of[proto.EncJSON] // decoded from another encoding and kept as JSON
			}
			if red != nil {
				body = red.redact(body, true)
			}
			setBytes(body, &b.mtext, &l.MText, &l.MB64)
		}
	}
	return l
}

// setBytes stores b as text, in into, when it is valid UTF-8, as base64
// otherwise. The text shares b's memory, without a copy: a line is
// encoded as soon as it is built, and a frame's bytes (or the masked copy
// of them) are never changed, so b stays as it is for as long as the
// line refers to it.
func setBytes(b []byte, into *string, text **string, b64 *[]byte) {
	if len(b) == 0 {
		return
	}
	if utf8.Valid(b) {
		*into = unsafe.String(&b[0], len(b))
		*text = into
		return
	}
	*b64 = b
}
