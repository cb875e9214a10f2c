package cli

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// streamTrace is the --trace sink: one line per frame, except that an
// execution stream shows as two lines, its header when it opens and its end
// with the byte count, instead of one line per payload chunk.
type streamTrace struct {
	traceSink
	mu   sync.Mutex
	open map[capture.StreamKey]*streamTally
	// probes are the HTTP exchanges ("http POST 1") that carried a probe,
	// with its method (probeAnswered).
	probes map[string]string
	// clock, when set, is the time a stream's end line says (an export
	// of a recording reads the recorded time); default time.Now.
	clock func() time.Time
}

// streamTally counts what a stream carried while it is open.
type streamTally struct {
	bytes int64
	size  int64 // announced by the peer; -1 when unknown
	first time.Time
}

var _ capture.Tap = (*streamTrace)(nil)

func newStreamTrace(out *lineWriter) *streamTrace {
	return &streamTrace{traceSink: traceSink{out: out}, open: make(map[capture.StreamKey]*streamTally)}
}

// Append prints a frame's trace line; a stream's payload chunks are only
// counted, a datagram's payload is summarised.
func (s *streamTrace) Append(f *capture.Frame) uint64 {
	switch {
	case f.Chan.Kind == capture.Datagram && f.Err == nil:
		s.out.Println(s.line(f) + " " + datagramSummary(f))
		return 0
	case f.Chan.Kind == capture.Stream && f.Err != nil:
		bare := *f
		bare.Err, bare.Msg = nil, nil
		s.out.Println(s.line(&bare) + " " + oneLine(f.Err.Error()))
		return 0
	case f.Chan.Kind == capture.Control && f.Msg != nil:
		s.out.Println(s.line(f) + s.probeAnswered(f))
		return 0
	case f.Chan.Kind != capture.Stream:
		return s.traceSink.Append(f)
	}
	key := capture.StreamKeyOf(f)
	s.mu.Lock()
	tally := s.tallyLocked(key, f.Time)
	if tally.first.IsZero() {
		tally.first = f.Time
	}
	if !hasHeader(f) {
		tally.bytes += int64(max(f.Size, len(f.Raw)))
		s.mu.Unlock()
		return 0
	}
	s.mu.Unlock()
	s.out.Println(s.line(f) + " open")
	return 0
}

// tallyLocked returns the tally of key, starting one. s.mu is held.
func (s *streamTrace) tallyLocked(key capture.StreamKey, at time.Time) *streamTally {
	t := s.open[key]
	if t == nil {
		t = &streamTally{size: -1, first: at}
		s.open[key] = t
	}
	return t
}

// Note takes a stream's end and announced size; other notes are not
// traced.
func (s *streamTrace) Note(e capture.Event) {
	switch e := e.(type) {
	case capture.StreamMarked:
		s.markStream(e.Key, e.State, e.Err)
	case capture.StreamSized:
		s.setStreamSize(e.Key, e.Size)
	}
}

// markStream prints the end of a stream with what it carried.
func (s *streamTrace) markStream(key capture.StreamKey, state capture.StreamState, err error) {
	if state == capture.StreamOpen {
		return
	}
	s.mu.Lock()
	t := s.open[key]
	delete(s.open, key)
	s.mu.Unlock()
	if t == nil {
		t = &streamTally{size: -1}
	}
	chans := capture.Channel{Kind: capture.Stream, ReqID: key.ReqID, Tag: key.Tag}
	var b strings.Builder
	now := time.Now()
	if s.clock != nil {
		now = s.clock()
	}
	fmt.Fprintf(&b, "%s ← %s %s %dB", now.Format("15:04:05.000"), chans, state, t.bytes)
	if t.size >= 0 {
		fmt.Fprintf(&b, " of %dB", t.size)
	}
	if !t.first.IsZero() {
		fmt.Fprintf(&b, " in %s", now.Sub(t.first).Round(time.Millisecond))
	}
	if err != nil {
		b.WriteString(": " + oneLine(err.Error()))
	}
	s.out.Println(b.String())
}

// setStreamSize notes the size the peer announced, for the end line.
func (s *streamTrace) setStreamSize(key capture.StreamKey, size int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.open[key]; t != nil {
		t.size = size
		return
	}
	// The result may name the size before the stream opens.
	s.tallyLocked(key, time.Time{}).size = size
}

// hasHeader reports whether a stream frame carries header fields (the
// frame that opens the stream) rather than payload only.
func hasHeader(f *capture.Frame) bool {
	for _, fd := range f.Fields {
		if fd.Kind == proto.FieldHeader {
			return true
		}
	}
	return false
}

// datagramSummary renders an MCP-Flow datagram's payload in a few words:
// "progress 3/10 step 3/10", "log info analyze: …", "audio 640B".
func datagramSummary(f *capture.Frame) string {
	if len(f.Raw) < flow.DatagramHeaderLen {
		return ""
	}
	payload := f.Raw[flow.DatagramHeaderLen:]
	switch ch := flow.DatagramChannel(f.Chan.Ch); ch {
	case flow.ChannelProgress:
		p, err := flow.DecodeProgressDatagram(f.Enc, payload)
		if err != nil {
			return "progress (undecodable)"
		}
		params := mcp.ProgressNotificationParams{Progress: p.Progress, Message: p.Message}
		if p.Total != 0 {
			params.Total = &p.Total
		}
		return formatProgress(params)
	case flow.ChannelLog:
		l, err := flow.DecodeLogDatagram(f.Enc, payload)
		if err != nil {
			return "log (undecodable)"
		}
		s := "log " + oneLine(l.Level)
		if l.Logger != "" {
			s += " " + oneLine(l.Logger)
		}
		return s + ": " + termtext.Ellipsis(oneLine(string(l.Data)), 60)
	case flow.ChannelAudio:
		return fmt.Sprintf("audio %dB", len(payload))
	default:
		return "channel " + ch.String()
	}
}
