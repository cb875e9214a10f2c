package capture

import (
	"cmp"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
)

// SSEKind says what an SSE stream of an HTTP session carries.
type SSEKind uint8

// SSE stream kinds.
const (
	SSEAnswer SSEKind = iota // the answer of a POST (Streamable HTTP, seed 004's tools-http)
	SSEGet                   // the standalone GET stream of a session, or one of its reconnects
	SSEResume                // a GET resuming a POST's answer stream after its last event id
	SSELegacy                // the one stream of the legacy HTTP+SSE transport
)

// String names the kind.
func (k SSEKind) String() string {
	switch k {
	case SSEAnswer:
		return "answer"
	case SSEGet:
		return "GET stream"
	case SSEResume:
		return "resume"
	case SSELegacy:
		return "legacy stream"
	}
	return "unknown"
}

// SSEState is where an SSE stream stands.
type SSEState uint8

// SSE stream states. A stream is open from its start until the transport
// ends it.
const (
	SSEOpen      SSEState = iota // receiving events
	SSEDone                      // its answer delivered, or a clean end
	SSEBroken                    // cut before its answer, or by an error
	SSECancelled                 // closed by mcpscope: a cancel, or the session's end
)

// String names the state.
func (s SSEState) String() string {
	switch s {
	case SSEOpen:
		return "open"
	case SSEDone:
		return "done"
	case SSEBroken:
		return "broken"
	case SSECancelled:
		return "cancelled"
	}
	return "unknown"
}

// SSEStart is what a transport says of an SSE stream when its body starts.
type SSEStart struct {
	Kind   SSEKind
	Method string // the request whose answer it carries (answers, resumes), or ""
	ReqID  string // that request's id as JSON text, or ""
	Of     string // resume: the connection of the stream it continues
	After  string // the Last-Event-ID the GET sent, or ""
}

// SSEStats is a snapshot of one SSE stream.
type SSEStats struct {
	Conn string // the connection of its exchange: "http POST 3", "http GET 2"
	SSEStart
	State    SSEState
	Why      string    // why it broke or was cancelled; "" while open or done
	Events   int64     // events read, comments (heartbeats) included
	Bytes    int64     // bytes of those events on the wire
	LastID   string    // the last event id after the latest event, or ""
	Opened   time.Time // when its body started
	Last     time.Time // when its latest event came; zero before any
	Ended    time.Time // when it ended; zero while open
	FirstSeq uint64    // Seq of its first event's frame; 0 when none was held
}

// maxSSEText bounds each string an SSE record keeps (ids, reasons): the
// record stays small whatever the server sends.
const maxSSEText = 256

// sseRecordCost is about what one remembered SSE stream costs, its
// strings at their bound included; MemoryBound counts it.
const sseRecordCost = 256 + 6*maxSSEText

// sseTable is the bounded record of SSE streams, keyed by connection.
type sseTable struct {
	mu   sync.Mutex
	max  int
	tick uint64
	recs map[string]*sseRecord
}

// sseRecord is what the table keeps of one stream.
type sseRecord struct {
	stats SSEStats
	order uint64
}

// open starts a record for conn, forgetting one past the bound: the
// oldest finished stream, or the oldest of all when none is finished.
func (t *sseTable) open(conn string, start SSEStart, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.recs == nil {
		t.recs = make(map[string]*sseRecord)
	}
	if _, ok := t.recs[conn]; !ok && len(t.recs) >= t.max {
		t.forgetLocked()
	}
	start.Method, start.ReqID = clipText(start.Method), clipText(start.ReqID)
	start.Of, start.After = clipText(start.Of), clipText(start.After)
	t.tick++
	t.recs[conn] = &sseRecord{order: t.tick, stats: SSEStats{Conn: clipText(conn), SSEStart: start, Opened: now}}
}

// forgetLocked drops the stream to forget. t.mu is held.
func (t *sseTable) forgetLocked() {
	key, ok := toForget(t.recs, func(r *sseRecord) (bool, uint64) { return r.stats.State != SSEOpen, r.order })
	if ok {
		delete(t.recs, key)
	}
}

// event counts one event of an open stream; it reports whether conn is
// one the table follows.
func (t *sseTable) event(conn string, seq uint64, size int64, lastID string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.recs[conn]
	if !ok || r.stats.State != SSEOpen {
		return false
	}
	s := &r.stats
	s.Events++
	s.Bytes += max(size, 0)
	if s.LastID != lastID {
		s.LastID = clipText(lastID)
	}
	s.Last = now
	if s.FirstSeq == 0 {
		s.FirstSeq = seq
	}
	return true
}

// end records how an open stream ended; it reports whether conn is one
// the table follows. A stream ends once: later ends are ignored.
func (t *sseTable) end(conn string, state SSEState, why string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.recs[conn]
	if !ok || r.stats.State != SSEOpen || state == SSEOpen {
		return false
	}
	r.stats.State, r.stats.Why, r.stats.Ended = state, clipText(why), now
	return true
}

// list returns a snapshot of every stream, oldest first.
func (t *sseTable) list() []SSEStats {
	t.mu.Lock()
	recs := make([]sseRecord, 0, len(t.recs))
	for _, r := range t.recs {
		recs = append(recs, *r)
	}
	t.mu.Unlock()
	slices.SortFunc(recs, func(a, b sseRecord) int { return cmp.Compare(a.order, b.order) })
	out := make([]SSEStats, len(recs))
	for i, r := range recs {
		out[i] = r.stats
	}
	return out
}

// clipText cuts s to at most maxSSEText bytes, on a rune boundary.
func clipText(s string) string { return clipAt(s, maxSSEText) }

// clipAt cuts s to at most n bytes on a character boundary.
func clipAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// OpenSSE starts following the SSE stream of connection conn.
func (s *Store) OpenSSE(conn string, start SSEStart) {
	s.sse.open(conn, start, s.now())
	s.notify()
}

// SSEEvent counts one event of the SSE stream of conn; an unknown or
// ended stream is left alone.
func (s *Store) SSEEvent(conn string, seq uint64, size int64, lastID string) {
	if s.sse.event(conn, seq, size, lastID, s.now()) {
		s.notify()
	}
}

// EndSSE records how the SSE stream of conn ended; an unknown or ended
// stream is left alone.
func (s *Store) EndSSE(conn string, state SSEState, why string) {
	if s.sse.end(conn, state, why, s.now()) {
		s.notify()
	}
}

// SSEStreams returns a snapshot of every SSE stream the store remembers,
// oldest first: at most Config.MaxSSEStreams of them.
func (s *Store) SSEStreams() []SSEStats { return s.sse.list() }
