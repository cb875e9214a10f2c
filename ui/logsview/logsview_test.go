package logsview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// at is the time of the n-th fixture frame.
func at(n int) time.Time {
	return time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second)
}

// logFrame is a notifications/message from the server, the n-th frame.
func logFrame(n int, level, logger string, data any) *capture.Frame {
	d, _ := json.Marshal(data)
	p, _ := json.Marshal(mcp.LoggingMessageParams{Level: level, Logger: logger, Data: d})
	return &capture.Frame{Seq: uint64(n), Time: at(n), Dir: capture.In, Msg: &jsonrpc.Message{JSONRPC: "2.0", Method: mcp.MethodNotifyMessage, Params: p}}
}

// fixture is a book of a few lines of every kind.
func fixture() *Book {
	b := NewBook()
	b.Note(logFrame(1, "debug", "db", "connecting"))
	b.Note(logFrame(2, "info", "http", "GET /mcp 200"))
	b.Note(logFrame(3, "error", "db", map[string]any{"error": "timeout", "after_ms": 5000}))
	b.Note(logFrame(4, "info", "", "Info-level message"))
	b.Note(&capture.Frame{Seq: 5, Dir: capture.In, Msg: &jsonrpc.Message{Method: mcp.MethodNotifyProgress}})
	b.Note(&capture.Frame{Seq: 6, Dir: capture.Out, Msg: &jsonrpc.Message{Method: mcp.MethodNotifyMessage}})
	return b
}

// press sends keys to v and returns the last command.
func press(v *View, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd, _ = v.Update(keytest.Press(k))
	}
	return cmd
}

func TestBookKeepsServerMessagesOnly(t *testing.T) {
	b := fixture()
	if b.Len() != 4 {
		t.Fatalf("Len() = %d, want the 4 notifications/message from the server", b.Len())
	}
	if l := b.At(2); l.Level != "error" || l.Logger != "db" || !strings.Contains(string(l.Data), "timeout") {
		t.Errorf("At(2) = %+v", l)
	}
}

// TestBookFloodIsBounded: a flood of 100,000 messages leaves the newest
// MaxLines, oldest first, and the count of all.
func TestBookFloodIsBounded(t *testing.T) {
	b := NewBook()
	const n = 100_000
	for i := 1; i <= n; i++ {
		b.Note(logFrame(i, "info", "flood", i))
	}
	if b.Len() != MaxLines || b.Total() != n {
		t.Fatalf("Len %d Total %d, want %d and %d", b.Len(), b.Total(), MaxLines, n)
	}
	if first, last := b.At(0).Seq, b.At(MaxLines-1).Seq; first != n-MaxLines+1 || last != n {
		t.Errorf("holds %d…%d, want %d…%d", first, last, n-MaxLines+1, n)
	}
	v := Open(screentest.NewHost(), b)
	v.SetSize(80, 10)
	if s := goldentest.Plain(v.Render(80, 10)); !strings.Contains(s, "10000 lines (90000 older dropped)") || !strings.Contains(s, " 100000") {
		t.Errorf("the view of the flood:\n%s", s)
	}
}

// TestBookCutsLongData: a line keeps at most maxData bytes of its data.
func TestBookCutsLongData(t *testing.T) {
	b := NewBook()
	b.Note(logFrame(1, "info", "", strings.Repeat("x", 3*maxData)))
	if l := b.At(0); len(l.Data) != maxData || !l.Cut {
		t.Errorf("kept %d bytes, cut %v", len(l.Data), l.Cut)
	}
}

func TestGoldenLogView(t *testing.T) {
	h := screentest.NewHost()
	v := Open(h, fixture())
	v.SetSize(70, 8)
	goldentest.CheckPlain(t, "logs_all", h.View(v, 70, 8))
	press(v, "+", "+")
	goldentest.CheckPlain(t, "logs_notice", h.View(v, 70, 8))
	press(v, "-", "-", "/", "d", "b", "enter", "up")
	goldentest.CheckPlain(t, "logs_logger_db", h.View(v, 70, 8))
	press(v, "down", "enter")
	goldentest.CheckPlain(t, "logs_detail", h.View(v, 70, 8))
	if _, closed := v.Update(keytest.Press("esc")); closed || v.detail {
		t.Fatal("esc left the detail open or closed the view")
	}
}

// TestLogViewLevelKeysStayInRange: - at debug and + at emergency stay.
func TestLogViewLevelKeysStayInRange(t *testing.T) {
	v := Open(screentest.NewHost(), fixture())
	press(v, "-")
	if v.min != 0 {
		t.Errorf("min %d after - at debug", v.min)
	}
	for range 20 {
		press(v, "+")
	}
	if Levels[v.min] != "emergency" {
		t.Errorf("min %s after many +", Levels[v.min])
	}
	if rows := v.visible(); len(rows) != 0 {
		t.Errorf("%d lines at emergency", len(rows))
	}
}

// TestLogViewSetLevelNeedsASession: v with no connection says so.
func TestLogViewSetLevelNeedsASession(t *testing.T) {
	v := Open(screentest.NewHost(), fixture())
	cmd := press(v, "v")
	if cmd == nil {
		t.Fatal("v did nothing")
	}
	if msg, ok := cmd().(screen.ErrorMsg); !ok || !strings.Contains(msg.Err.Error(), "not connected") {
		t.Errorf("v: %#v", msg)
	}
}

// TestLogViewHostileData: server text is shown escaped, in the list and
// in the detail.
func TestLogViewHostileData(t *testing.T) {
	b := NewBook()
	b.Note(logFrame(1, "warning", "evil\x1b]0;PWNED\x07", "\x1b]0;PWNED\x07 \x1b[2J\u202e"))
	h := screentest.NewHost()
	v := Open(h, b)
	v.SetSize(120, 6)
	screentest.AssertSafeView(t, "the list", h.View(v, 120, 6))
	press(v, "enter")
	screentest.AssertSafeView(t, "the detail", h.View(v, 120, 6))
}

// BenchmarkLogFlood notes a flood and draws the view once per 1,000
// messages, as the UI's coalesced refresh would.
func BenchmarkLogFlood(b *testing.B) {
	frames := make([]*capture.Frame, 100_000)
	for i := range frames {
		frames[i] = logFrame(i+1, "info", "flood", "message")
	}
	for b.Loop() {
		book := NewBook()
		v := Open(screentest.NewHost(), book)
		for i, f := range frames {
			book.Note(f)
			if i%1000 == 0 {
				v.Render(100, 40)
			}
		}
	}
}

// FuzzLogBookNote: any params of a notifications/message, or any
// datagram, is read without a panic, and the view draws it.
func FuzzLogBookNote(f *testing.F) {
	f.Add([]byte(`{"level":"info","logger":"x","data":{"a":[1,2]}}`), false)
	f.Add([]byte(`{"level":7}`), false)
	f.Add([]byte{0x03, 0, 0, 0, 0, 1, '{', '}'}, true)
	f.Fuzz(func(t *testing.T, b []byte, datagram bool) {
		book := NewBook()
		fr := &capture.Frame{Seq: 1, Dir: capture.In, Raw: b, Msg: &jsonrpc.Message{Method: mcp.MethodNotifyMessage, Params: b}}
		if datagram {
			fr.Chan.Kind, fr.Msg = capture.Datagram, nil
		}
		book.Note(fr)
		if book.Len() == 1 {
			if l := book.At(0); len(l.Data) > maxData || len(l.Level) > maxName+len("…") || len(l.Logger) > maxName+len("…") {
				t.Fatalf("line not bounded: %d bytes of data, level %d, logger %d", len(l.Data), len(l.Level), len(l.Logger))
			}
		}
		v := Open(screentest.NewHost(), book)
		v.Render(60, 5)
		press(v, "enter")
		v.Render(60, 5)
	})
}

// TestBookFlowLogDatagram: an MCP-Flow log datagram in CBOR is a line of
// its own, marked as a datagram; a progress datagram is not.
func TestBookFlowLogDatagram(t *testing.T) {
	datagram := func(ch flow.DatagramChannel, v any) *capture.Frame {
		payload, err := jsonrpc.Marshal(proto.EncCBOR, v)
		if err != nil {
			t.Fatal(err)
		}
		raw := flow.DatagramHeader{Channel: ch, RequestID: 3}.Append(nil)
		return &capture.Frame{Seq: 1, Time: at(1), Dir: capture.In, Chan: capture.Channel{Kind: capture.Datagram}, Enc: proto.EncCBOR, Raw: append(raw, payload...)}
	}
	b := NewBook()
	b.Note(datagram(flow.ChannelLog, flow.LogDatagram{Level: "warning", Logger: "audio", Data: json.RawMessage(`"clipping"`)}))
	b.Note(datagram(flow.ChannelProgress, flow.ProgressDatagram{Progress: 1}))
	if b.Len() != 1 {
		t.Fatalf("Len() = %d, want the log datagram only", b.Len())
	}
	if l := b.At(0); !l.Flow || l.Level != "warning" || l.Logger != "audio" || string(l.Data) != `"clipping"` {
		t.Errorf("line %+v", l)
	}
}

// TestBookCutsNames: a level or a logger of a megabyte is kept cut.
func TestBookCutsNames(t *testing.T) {
	b := NewBook()
	huge := strings.Repeat("n", 1<<20)
	b.Note(logFrame(1, huge, huge, "x"))
	if l := b.At(0); len(l.Level) > maxName+4 || len(l.Logger) > maxName+4 {
		t.Errorf("kept a level of %d bytes and a logger of %d", len(l.Level), len(l.Logger))
	}
}

// TestDetailStaysOnItsLine: the detail of the newest line, opened while the
// selection follows new lines, keeps showing that line as newer ones
// arrive; closing it follows the newest again.
func TestDetailStaysOnItsLine(t *testing.T) {
	b := NewBook()
	b.Note(logFrame(1, "error", "db", "the line I opened"))
	h := screentest.NewHost()
	v := Open(h, b)
	v.SetSize(120, 8)
	press(v, "enter")
	b.Note(logFrame(2, "info", "flood", "a newer line"))
	if got := h.View(v, 120, 8); !strings.Contains(got, "the line I opened") || strings.Contains(got, "a newer line") {
		t.Fatalf("the open detail changed under the reader:\n%s", got)
	}
	press(v, "esc")
	b.Note(logFrame(3, "info", "flood", "the newest line"))
	if l, ok := v.selected(); !ok || l.Seq != 3 {
		t.Errorf("after the detail closed the selection is on %d, want the newest line", l.Seq)
	}
}
