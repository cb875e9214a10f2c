package findings

import (
	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Bounds of a detector's memory, whatever the capture holds.
const (
	// maxSessions is how many sessions (capture.SessionConn) a detector
	// follows; the oldest is forgotten past it.
	maxSessions = 64
	// maxHeads is how many HTTP exchanges a detector holds the request
	// head of, waiting for the body.
	maxHeads = 64
	// shownText caps the server text quoted in a summary.
	shownText = 80
	// maxRequests is how many requests, pending and answered, a detector
	// remembers over all its sessions; past it every session forgets
	// them (as Missed does).
	maxRequests = 65_536
	// maxSchemaBytes is how many bytes of outputSchemas a detector keeps
	// compiled over all its sessions; past it every session forgets its
	// tools (their results are no longer judged).
	maxSchemaBytes = 4 << 20
)

// Detector reads frames in capture order and reports the findings each
// one brings. Its memory is bounded whatever the capture holds. It is not
// safe for concurrent use.
type Detector struct {
	sessions bounded[string, *session]
	heads    bounded[string, *head]
	frames   uint64 // frames read, for the Seq of a frame that has none
	// missed says frames went unread: a session first seen since may
	// have sent requests unseen.
	missed bool
	// deferOver and deferred: see DeferOver.
	deferOver int
	deferred  []Deferred
}

// NewDetector returns a detector that has read nothing.
func NewDetector() *Detector {
	return &Detector{sessions: newBounded[string, *session](maxSessions), heads: newBounded[string, *head](maxHeads)}
}

// Note reads one frame and returns the findings it brings, if any.
func (d *Detector) Note(f *capture.Frame) []Finding {
	if f == nil {
		return nil
	}
	d.frames++
	r := &report{f: f, seq: f.Seq, deferOver: d.deferOver}
	if r.seq == 0 {
		r.seq = d.frames
	}
	s := d.session(f.Conn)
	switch f.Chan.Kind {
	case capture.HTTP:
		d.noteHead(s, r)
	case capture.Control, capture.Stream:
		noteBroken(s, r)
		if f.Chan.Kind == capture.Control {
			d.noteMessages(s, r)
			d.budget() // only messages add what the budget bounds
		}
	}
	d.deferred = append(d.deferred, r.deferred...)
	return r.out
}

// Missed tells the detector that frames went unread (a reader that fell
// behind, frames the capture dropped, a viewer joining a session late):
// an answer to a request it did not see, or a second answer to one whose
// first it did not see, is then not reported.
func (d *Detector) Missed() {
	d.missed = true
	for s := range d.sessions.values() {
		s.missed()
	}
	d.heads.clear()
}

// budget keeps the detector's memory within maxRequests and
// maxSchemaBytes, whatever the number of sessions.
func (d *Detector) budget() {
	requests, schemas := 0, 0
	for s := range d.sessions.values() {
		requests += s.pending.len() + s.answered.len() + s.tasks.len()
		schemas += s.schemaBytes
	}
	if schemas > maxSchemaBytes {
		schemas = 0 // schemaBytes counts schemas since replaced or forgotten: count again
		for s := range d.sessions.values() {
			s.schemaBytes = 0
			for t := range s.tools.values() {
				s.schemaBytes += t.size
			}
			schemas += s.schemaBytes
		}
	}
	if requests > maxRequests {
		for s := range d.sessions.values() {
			s.missed()
			s.pending.clear()
			s.tasks.clear()
		}
	}
	if schemas > maxSchemaBytes {
		for s := range d.sessions.values() {
			s.tools.clear()
			s.schemaBytes = 0
		}
	}
}

// session returns the state of the session conn belongs to.
func (d *Detector) session(conn string) *session {
	key := capture.SessionConn(conn)
	if s, ok := d.sessions.get(key); ok {
		return s
	}
	s := newSession()
	s.forgot = d.missed
	d.sessions.put(key, s)
	return s
}

// report gathers the findings of one frame.
type report struct {
	f   *capture.Frame
	seq uint64
	out []Finding
	// deferOver and deferred: the judgements of tool results past
	// deferOver bytes (0: none) are left in deferred (DeferOver).
	deferOver int
	deferred  []Deferred
}

// add reports a finding of code about the bytes [off, off+n) of the
// frame (n 0: the whole frame) at path; summary is sanitized here.
func (r *report) add(code, summary string, off, n int, path string) {
	r.out = append(r.out, Finding{
		Severity: severityOf(code), Code: code, Summary: termtext.Line(summary),
		Seq: r.seq, Conn: r.f.Conn, Offset: off, Length: n, Path: path,
	})
}

// addPath reports a finding about the JSON member at path of the frame's
// body, its bytes found when the body holds it.
func (r *report) addPath(code, summary, path string) {
	off, n := pathSpan(r.f, path)
	r.add(code, summary, off, n, path)
}

// field returns the first annotation of f named name.
func field(f *capture.Frame, name string) (proto.Field, bool) {
	for _, fd := range f.Fields {
		if fd.Name == name {
			return fd, true
		}
	}
	return proto.Field{}, false
}

// quote is server text for a summary: quoted, cut, on one line.
func quote(s string) string { return termtext.QuoteMax(s, shownText) }

// pathSpan finds the bytes of the member at path in a frame's body: its
// offset in Raw and length, or 0, 0 when the body does not hold it.
func pathSpan(f *capture.Frame, path string) (off, n int) {
	body, lo := bodyOf(f)
	for _, it := range jsonrpc.BodyItems(f.Enc, body, lo) {
		if it.Path == path && it.Role == jsonrpc.ItemValue {
			return spanOf(f, it.Offset, it.Len)
		}
	}
	return 0, 0
}
