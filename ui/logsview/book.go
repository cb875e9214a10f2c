package logsview

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// MaxLines is how many log lines a Book keeps: past it the oldest go.
const MaxLines = 10000

// maxData bounds the bytes of one line's data a Book keeps (the frame in
// the store holds the rest while it is held); maxName bounds its level
// and logger.
const (
	maxData = 4096
	maxName = 256
)

// Levels are the log levels of MCP, lowest first (RFC 5424's severities).
var Levels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Rank is the place of level among Levels; a level MCP does not name
// ranks above them all, so that no level filter hides it.
func Rank(level string) int {
	if i := slices.Index(Levels, level); i >= 0 {
		return i
	}
	return len(Levels)
}

// Line is one log message of the server: a notifications/message, or a
// log datagram on MCP-Flow.
type Line struct {
	Seq    uint64
	Time   time.Time
	Conn   string
	Level  string
	Logger string
	Data   json.RawMessage // the data, cut to maxData bytes (Cut)
	Cut    bool
	Flow   bool // an MCP-Flow log datagram
	// params, until At reads them, are the notification's params (a copy,
	// at most maxData bytes): Level, Logger and Data are not set yet.
	params json.RawMessage
}

// Book keeps the newest MaxLines log lines of the capture in a ring.
type Book struct {
	ring  []Line
	next  int    // where the next line goes once the ring is full
	total uint64 // every line read, those dropped included
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{} }

// Note reads one captured frame, in capture order: a notifications/message
// from the server, or an MCP-Flow log datagram, becomes a line.
func (b *Book) Note(f *capture.Frame) {
	if f.Dir != capture.In {
		return
	}
	if f.Chan.Kind == capture.Datagram {
		b.noteDatagram(f)
		return
	}
	if f.Msg == nil || f.Msg.Method != mcp.MethodNotifyMessage {
		return
	}
	l := Line{Seq: f.Seq, Time: f.Time, Conn: f.Conn}
	if p := f.Msg.Params; len(p) <= maxData {
		// A line is read when a view asks for it (At), not in a flood.
		l.params = slices.Clone(p)
		b.keep(l)
		return
	}
	l.Level, l.Logger, l.Data = logMembers(f.Msg.Params)
	b.add(l)
}

// read sets the level, logger and data of a line kept with its params.
func (l *Line) read() {
	if l.params == nil {
		return
	}
	l.Level, l.Logger, l.Data = logMembers(l.params) // data is a part of the copy
	l.Level, l.Logger, l.params = cutName(l.Level), cutName(l.Logger), nil
}

// logMembers reads the level, logger and data of a notifications/message's
// params without decoding its data, which may be megabytes: the members are
// found with a byte scan and data is kept as written (add cuts it). Params
// that are no object come back whole as the data of level "?".
func logMembers(params json.RawMessage) (level, logger string, data json.RawMessage) {
	members, ok := jsonrpc.ObjectMembers(params)
	if !ok {
		return "?", "", params
	}
	level = "?"
	for _, m := range members {
		switch m.Key {
		case "level":
			level = smallString(m.Value, "?")
		case "logger":
			logger = smallString(m.Value, "?")
		case "data":
			data = m.Value
		}
	}
	return level, logger, data
}

// smallString decodes a level or a logger: a JSON string of at most a few
// KiB as written; anything else is bad.
func smallString(raw json.RawMessage, bad string) string {
	var s string
	if len(raw) > 4*maxName+2 || json.Unmarshal(raw, &s) != nil {
		return bad
	}
	return s
}

// noteDatagram reads an MCP-Flow datagram on the log channel.
func (b *Book) noteDatagram(f *capture.Frame) {
	h, payload, _, err := flow.ParseDatagramHeader(f.Raw)
	if err != nil || f.Err != nil || h.Channel != flow.ChannelLog {
		return
	}
	l, err := flow.DecodeLogDatagram(f.Enc, payload)
	if err != nil {
		return
	}
	b.add(Line{Seq: f.Seq, Time: f.Time, Conn: f.Conn, Level: l.Level, Logger: l.Logger, Data: l.Data, Flow: true})
}

// add keeps l, its data cut and copied.
func (b *Book) add(l Line) {
	l.Level, l.Logger = cutName(l.Level), cutName(l.Logger)
	if len(l.Data) > maxData {
		l.Data, l.Cut = slices.Clone(l.Data[:maxData]), true
	} else {
		l.Data = slices.Clone(l.Data)
	}
	b.keep(l)
}

// keep keeps l as it is, dropping the oldest line when the ring is full.
func (b *Book) keep(l Line) {
	b.total++
	if len(b.ring) < MaxLines {
		b.ring = append(b.ring, l)
		return
	}
	b.ring[b.next] = l
	b.next = (b.next + 1) % MaxLines
}

// Len is how many lines the book holds.
func (b *Book) Len() int { return len(b.ring) }

// Total is how many lines the book read, those it dropped included.
func (b *Book) Total() uint64 { return b.total }

// At is the i-th line held, oldest first.
func (b *Book) At(i int) Line {
	if len(b.ring) == MaxLines {
		i = (b.next + i) % MaxLines
	}
	l := &b.ring[i]
	l.read()
	return *l
}

// cutName keeps at most maxName bytes of a level or a logger, a copy.
func cutName(s string) string {
	if len(s) > maxName {
		return strings.Clone(s[:maxName]) + "…"
	}
	return s
}
