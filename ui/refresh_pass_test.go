package ui

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// appendLogLines appends n notifications/message, numbered from first on,
// as a flood sends them.
func appendLogLines(st *capture.Store, first, n int) {
	for i := first; i < first+n; i++ {
		p, _ := json.Marshal(mcp.LoggingMessageParams{Level: "info", Logger: "flood", Data: json.RawMessage(strconv.Itoa(i))})
		msg := &jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: mcp.MethodNotifyMessage, Params: p}
		raw, _ := msg.EncodeJSON()
		st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: len(raw), Msg: msg})
	}
}

// nextSlice runs cmd, which a slice of a pass returned, and returns the
// passMsg it asks for; cmd holds nothing else while the pass goes on.
func nextSlice(t *testing.T, cmd tea.Cmd) passMsg {
	t.Helper()
	var found []passMsg
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		case passMsg:
			found = append(found, msg)
		default:
			t.Fatalf("a slice of a pass asked for %T", msg)
		}
	}
	run(cmd)
	if len(found) != 1 {
		t.Fatalf("a slice of a pass asked for %d more slices, want 1", len(found))
	}
	return found[0]
}

// A key that comes while a refresh reads a flood of 20,000 frames waits
// for one slice of the pass, not for the whole pass: the program runs its
// Update next and the render after it shows its effect. Keys between the
// slices are all answered, in order, and the pass still reads every frame
// of the flood, in order, none skipped.
func TestKeyWaitsForOneSliceOfAFlood(t *testing.T) {
	const flood = 20_000
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 170, 50)
	appendLogLines(st, 1, flood)

	_, cmd := m.Update(refreshMsg{at: time.Now()})
	if read := m.idx.next - 1; read > sliceFrames || !m.passing {
		t.Fatalf("a key sent with the refresh waits for %d frames to be read, over one slice of %d", read, sliceFrames)
	}
	keys, help := 0, false
	for m.passing {
		press(m, "?")
		keys, help = keys+1, !help
		if shown := strings.Contains(screenText(m), "filter words (all must match)"); shown != help {
			t.Fatalf("key %d: the render after it shows the help %v, want %v", keys, shown, help)
		}
		before := m.idx.next
		_, cmd = m.Update(nextSlice(t, cmd))
		if read := m.idx.next - before; read > sliceFrames {
			t.Fatalf("a slice read %d frames, over %d", read, sliceFrames)
		}
	}
	if keys < flood/sliceFrames-1 {
		t.Errorf("the pass let %d keys in, want one between every two slices", keys)
	}
	logs := m.idx.views.logs
	if m.idx.next != flood+1 || m.idx.skipped != 0 || logs.Total() != flood {
		t.Fatalf("after the pass: next %d, skipped %d, %d log lines read; want all %d", m.idx.next, m.idx.skipped, logs.Total(), flood)
	}
	for i := range logs.Len() {
		if l := logs.At(i); string(l.Data) != strconv.Itoa(flood-logs.Len()+1+i) {
			t.Fatalf("log line %d of %d holds %s", i, logs.Len(), l.Data)
		}
	}
}

// While a pass is read, the screen stays as drawn until the pass is read
// whole, and then shows every frame of it; a key between two slices is
// drawn at once.
func TestPassHoldsTheScreenUntilRead(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 170, 50)
	appendLogLines(st, 1, 3*sliceFrames)
	before := screenText(m)
	_, cmd := m.Update(refreshMsg{at: time.Now()})
	if !m.hold || screenText(m) != before {
		t.Fatalf("after a slice of the pass the screen changed (held %v)", m.hold)
	}
	press(m, "?")
	if m.hold || !strings.Contains(screenText(m), "filter words (all must match)") {
		t.Fatal("a key between two slices is not drawn")
	}
	for m.passing {
		_, cmd = m.Update(nextSlice(t, cmd))
	}
	if m.hold || !strings.Contains(m.traffic.Title(), strconv.Itoa(3*sliceFrames)) {
		t.Errorf("after the pass the traffic pane reads %q, held %v", m.traffic.Title(), m.hold)
	}
}

// Frames the store lets go while a pass is read are counted as skipped,
// and every other frame is read: nothing of the flood goes uncounted.
func TestPassCountsFramesTheStoreLetGo(t *testing.T) {
	st := capture.NewStore(capture.Config{MaxFrames: 2 * sliceFrames})
	m := newTestModel(t, st, 170, 50)
	appendLogLines(st, 1, 2*sliceFrames)
	_, cmd := m.Update(refreshMsg{at: time.Now()})
	appendLogLines(st, 2*sliceFrames+1, 3*sliceFrames) // the pass's last frames leave the store
	for m.passing {
		_, cmd = m.Update(nextSlice(t, cmd))
	}
	refreshWhole(m, time.Now())
	read, s := m.idx.views.logs.Total(), st.Stats()
	if read+m.idx.skipped != s.TotalFrames || m.idx.next != s.LastSeq+1 || m.idx.skipped == 0 {
		t.Errorf("read %d and skipped %d of %d frames, next %d", read, m.idx.skipped, s.TotalFrames, m.idx.next)
	}
}

// A slice asked for by a pass that is over, or by another Model, reads
// nothing, asks for nothing and draws nothing.
func TestStaleSliceIsIgnored(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 170, 50)
	stale := passMsg{pass: m.pass}
	appendLogLines(st, 1, 2*sliceFrames)
	m.Update(refreshMsg{at: time.Now()})
	next := m.idx.next
	if _, cmd := m.Update(stale); cmd != nil || m.idx.next != next || !m.hold {
		t.Errorf("a stale slice read %d frames, asked for more %v, redrew the screen %v", m.idx.next-next, cmd != nil, !m.hold)
	}
}
