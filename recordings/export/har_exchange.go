package export

import (
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// Bounds of a HAR export: a HAR is one JSON document that viewers load
// whole, so the exchanges are gathered before it is written. Past these
// bounds the export says what it left out instead of growing.
const (
	// MaxHAREntries is how many exchanges a HAR holds at most.
	MaxHAREntries = 100_000
	// HARBudget is how many bytes of heads, bodies and notes a HAR export
	// holds at most; a body past it is cut, an exchange past it left out.
	HARBudget = 256 << 20
	// maxNotes is how many notes one exchange keeps for its comment.
	maxNotes = 32
	// maxNote is how many bytes of one note are kept.
	maxNote = 1 << 10
)

// exchange is what a recording holds of one HTTP request and its
// response: the frames of one connection ("http POST 3").
type exchange struct {
	conn    string
	req     requestHead
	started time.Time // the request head
	sent    time.Time // the last frame sent
	body    []byte    // the request body as kept
	bodyLen int64     // its size on the wire

	rsp      *responseHead
	answered time.Time // the response head
	last     time.Time // the last frame of the exchange, or the end of its SSE stream
	content  []byte    // the response body as kept
	size     int64     // its size on the wire
	cut      bool      // content holds less than size
	hasBody  bool      // a response body frame came

	sse   *sseInfo
	notes []string
}

// sseInfo is what the recording says of the SSE stream of an exchange.
type sseInfo struct {
	Kind   string `json:"kind"`
	State  string `json:"state"`
	Why    string `json:"why,omitempty"`
	Events int64  `json:"events"`
	LastID string `json:"last_id,omitempty"`
}

// harBuilder gathers the exchanges of a recording.
type harBuilder struct {
	byConn  map[string]*exchange // the latest exchange of each connection
	entries []*exchange          // in the order their requests were sent
	budget  int64
	left    int   // exchanges left out past the bounds
	cut     int   // bodies cut short by the budget
	stray   int64 // frames of no exchange
}

func newHARBuilder() *harBuilder {
	return &harBuilder{byConn: map[string]*exchange{}, budget: HARBudget}
}

// take reserves n bytes of the budget; it reports false, reserving
// nothing, when they do not fit.
func (b *harBuilder) take(n int) bool {
	if int64(n) > b.budget {
		return false
	}
	b.budget -= int64(n)
	return true
}

// fit returns the part of p the budget still holds, and reserves it.
func (b *harBuilder) fit(p []byte) []byte {
	n := int(min(int64(len(p)), b.budget))
	b.budget -= int64(n)
	return p[:n]
}

// record takes one record of the recording.
func (b *harBuilder) record(rec *recordings.Record) error {
	switch rec.Kind {
	case recordings.RecFrame:
		b.frame(rec.Frame)
	case recordings.RecSSEOpen:
		if ex := b.byConn[rec.Conn]; ex != nil {
			ex.sse = &sseInfo{Kind: recordings.SSEKindName(rec.SSE.Kind), State: capture.SSEOpen.String()}
		}
	case recordings.RecSSEEvent:
		if ex := b.byConn[rec.Conn]; ex != nil && ex.sse != nil {
			ex.sse.Events++
			ex.sse.LastID = clip(rec.LastID)
		}
	case recordings.RecSSEEnd:
		if ex := b.byConn[rec.Conn]; ex != nil && ex.sse != nil {
			ex.sse.State, ex.sse.Why = rec.SSEState.String(), clip(rec.Why)
			ex.seen(rec.Time)
		}
	}
	return nil
}

// frame adds f to its exchange; a request head starts one.
func (b *harBuilder) frame(f *capture.Frame) {
	part := partOf(f)
	if part == partRequestHead {
		b.start(f)
		return
	}
	ex := b.byConn[f.Conn]
	if ex == nil {
		b.stray++
		return
	}
	if f.Dir == capture.Out {
		ex.sent = later(ex.sent, f.Time)
	} else {
		ex.seen(f.Time)
	}
	if f.Err != nil {
		what := "decode error: "
		if f.Dir == capture.Out {
			what = "write failed: "
		}
		b.note(ex, what+f.Err.Error())
	}
	switch part {
	case partRequestBody:
		ex.body = append(ex.body, b.fit(f.Raw)...)
		ex.bodyLen += int64(max(f.Size, len(f.Raw)))
	case partResponseHead:
		h, _ := parseResponseHead(f.Raw)
		if ex.rsp == nil && b.take(len(f.Raw)) {
			ex.rsp, ex.answered = &h, f.Time
		}
	case partResponseBody:
		kept := b.fit(f.Raw)
		if len(kept) < len(f.Raw) && !ex.cut {
			b.cut++
		}
		ex.content = append(ex.content, kept...)
		ex.size += int64(max(f.Size, len(f.Raw)))
		ex.cut = ex.cut || len(kept) < max(f.Size, len(f.Raw))
		ex.hasBody = true
	case partNote:
		b.note(ex, string(f.Raw))
	}
}

// start begins the exchange whose request head is f, unless the bounds
// are reached.
func (b *harBuilder) start(f *capture.Frame) {
	h, _ := parseRequestHead(f.Raw)
	if len(b.entries) >= MaxHAREntries || !b.take(len(f.Raw)+len(f.Conn)) {
		b.left++
		delete(b.byConn, f.Conn)
		return
	}
	ex := &exchange{conn: f.Conn, req: h, started: f.Time, sent: f.Time}
	b.byConn[f.Conn] = ex
	b.entries = append(b.entries, ex)
}

// note keeps a line for the exchange's comment.
func (b *harBuilder) note(ex *exchange, s string) {
	s = clip(s)
	if len(ex.notes) < maxNotes && b.take(len(s)) {
		ex.notes = append(ex.notes, s)
	}
}

// seen moves the end of the exchange to t.
func (ex *exchange) seen(t time.Time) { ex.last = later(ex.last, t) }

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// clip bounds a note.
func clip(s string) string {
	if len(s) > maxNote {
		return s[:maxNote] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// part is what a frame of an HTTP session is to its exchange.
type part uint8

const (
	partNone part = iota
	partRequestHead
	partRequestBody
	partResponseHead
	partResponseBody
	partNote
)

// partOf says what f is to its exchange. mcpscope names the first
// annotation of a head "method" (request) or "version" (response), of a
// note "note" and of a body it could not decode "body" or "body (head)";
// a frame without annotations is read by its bytes.
func partOf(f *capture.Frame) part {
	switch f.Chan.Kind {
	case capture.Control:
		if f.Dir == capture.Out {
			return partRequestBody
		}
		return partResponseBody
	case capture.HTTP:
	default:
		return partNone
	}
	first := ""
	if len(f.Fields) > 0 {
		first = f.Fields[0].Name
	}
	switch {
	case first == "body" || first == "body (head)":
		if f.Dir == capture.Out {
			return partRequestBody
		}
		return partResponseBody
	case first != "method" && first != "version" && first != "":
		return partNote
	}
	if _, ok := parseRequestHead(f.Raw); ok && f.Dir == capture.Out && first != "version" {
		return partRequestHead
	}
	if _, ok := parseResponseHead(f.Raw); ok && f.Dir == capture.In && first != "method" {
		return partResponseHead
	}
	return partNote
}
