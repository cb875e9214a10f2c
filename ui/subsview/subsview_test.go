package subsview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// wire builds the frames of a capture, Seq and time in order.
type wire struct{ frames []*capture.Frame }

func (w *wire) add(dir capture.Dir, raw string) {
	var m jsonrpc.Message
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		panic(raw)
	}
	n := len(w.frames) + 1
	w.frames = append(w.frames, &capture.Frame{Seq: uint64(n), Time: time.Date(2026, 7, 28, 12, 0, n, 0, time.UTC), Dir: dir, Conn: "c1", Msg: &m})
}

func (w *wire) book() *Book {
	b := NewBook()
	for _, f := range w.frames {
		b.Note(f)
	}
	return b
}

// legacyWire subscribes with resources/subscribe, gets two updates and
// unsubscribes from one of two resources.
func legacyWire() *wire {
	w := &wire{}
	w.add(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"demo://a"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	w.add(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"demo://b"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://a"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://a"}}`)
	w.add(capture.Out, `{"jsonrpc":"2.0","id":3,"method":"resources/unsubscribe","params":{"uri":"demo://b"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	w.add(capture.Out, `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"demo://refused"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}`)
	return w
}

func TestBookLegacy(t *testing.T) {
	b := legacyWire().book()
	a, bb := b.Lookup("demo://a"), b.Lookup("demo://b")
	if a == nil || !a.Live || a.Updates != 2 || a.LastSeq != 6 || a.Via != ViaSubscribe {
		t.Errorf("demo://a: %+v", a)
	}
	if bb == nil || bb.Live || bb.Updates != 0 {
		t.Errorf("demo://b: %+v", bb)
	}
	if r := b.Lookup("demo://refused"); r != nil {
		t.Errorf("a refused subscription is listed: %+v", r)
	}
}

// TestBookListen: a 2026-07-28 subscription is live once acknowledged,
// counts the updates tagged with it and ends with its cancellation.
func TestBookListen(t *testing.T) {
	w := &wire{}
	w.add(capture.Out, `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["test://w","test://no"]}}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"resourceSubscriptions":["test://w"]}}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"uri":"test://w"}}`)
	b := w.book()
	if r := b.Lookup("test://w"); r == nil || !r.Live || r.Updates != 1 || r.Via != ViaListen {
		t.Fatalf("test://w: %+v", r)
	}
	if r := b.Lookup("test://no"); r != nil {
		t.Errorf("a URI the server did not accept is listed: %+v", r)
	}
	w.add(capture.Out, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	b.Note(w.frames[len(w.frames)-1])
	if r := b.Lookup("test://w"); r.Live {
		t.Error("still live after the listen was cancelled")
	}
}

// TestBookUpdatesOnly: updates seen with no subscription in the capture
// (an attached proxy joined late) are counted too.
func TestBookUpdatesOnly(t *testing.T) {
	w := &wire{}
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://late"}}`)
	if r := w.book().Lookup("demo://late"); r == nil || r.Updates != 1 || r.Live || r.Via != "" {
		t.Errorf("demo://late: %+v", r)
	}
}

// TestBookBounded: past MaxUpdateOnly URIs never subscribed, updates are
// counted apart.
func TestBookBounded(t *testing.T) {
	b := NewBook()
	for i := range MaxUpdateOnly + 5 {
		p, _ := json.Marshal(mcp.ResourceUpdatedParams{URI: fmt.Sprintf("demo://r/%d", i)})
		b.Note(&capture.Frame{Seq: uint64(i + 1), Dir: capture.In, Msg: &jsonrpc.Message{Method: mcp.MethodNotifyResourceUpdated, Params: p}})
	}
	if len(b.Resources()) != MaxUpdateOnly || b.Untracked != 5 {
		t.Errorf("%d resources, %d untracked", len(b.Resources()), b.Untracked)
	}
}

// TestBookUnsolicitedUpdatesKeepOutOfTheWay: updates of URIs never
// subscribed, however many, leave room for the user's subscriptions, and a
// URI first seen in an update and then subscribed counts as subscribed.
func TestBookUnsolicitedUpdatesKeepOutOfTheWay(t *testing.T) {
	w := &wire{}
	for i := range MaxResources {
		w.add(capture.In, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"spam://%d"}}`, i))
	}
	w.add(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"demo://mine"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://mine"}}`)
	w.add(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"spam://0"}}`)
	w.add(capture.In, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	b := w.book()
	if r := b.Lookup("demo://mine"); r == nil || !r.Live || r.Updates != 1 {
		t.Fatalf("the user's subscription is not shown: %+v (untracked %d)", r, b.Untracked)
	}
	if r := b.Lookup("spam://0"); r == nil || !r.Live || r.Updates != 1 {
		t.Errorf("spam://0, updated then subscribed: %+v", r)
	}
	if len(b.Resources()) != MaxUpdateOnly+1 || b.Untracked != MaxResources-MaxUpdateOnly || b.updateOnly != MaxUpdateOnly-1 {
		t.Errorf("%d resources, %d untracked, %d update-only", len(b.Resources()), b.Untracked, b.updateOnly)
	}
}

// press sends keys to v and returns the last command.
func press(v *View, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd, _ = v.Update(keytest.Press(k))
	}
	return cmd
}

func TestGoldenSubscriptionsView(t *testing.T) {
	h := screentest.NewHost()
	v := Open(h, legacyWire().book())
	v.SetSize(90, 6)
	goldentest.CheckPlain(t, "subs_list", h.View(v, 90, 6))
	empty := Open(h, NewBook())
	goldentest.CheckPlain(t, "subs_empty", h.View(empty, 90, 4))
}

// TestViewKeysWithoutSession: r, u and s need the session, and say so;
// l asks the host for the URI's updates when it can filter.
func TestViewKeysWithoutSession(t *testing.T) {
	h := &filterHost{Host: screentest.NewHost()}
	v := Open(h, legacyWire().book())
	for _, k := range []string{"r", "enter", "s"} {
		cmd := press(v, k)
		if cmd == nil {
			t.Fatalf("%s did nothing", k)
		}
		if msg, ok := cmd().(screen.ErrorMsg); !ok || !strings.Contains(msg.Err.Error(), "not connected") {
			t.Errorf("%s: %#v", k, msg)
		}
		v.read, v.out = "", nil
	}
	if msg, ok := press(v, "u")().(screen.ErrorMsg); !ok || !strings.Contains(msg.Err.Error(), "is not subscribed") {
		t.Errorf("u: %#v", msg)
	}
	press(v, "l")
	if len(h.filters) != 1 || h.filters[0] != "notifications/resources/updated uri:demo://a" {
		t.Errorf("l filtered %q", h.filters)
	}
}

// filterHost is a host that filters the traffic.
type filterHost struct {
	*screentest.Host
	filters []string
}

func (h *filterHost) ShowFilter(text string) tea.Cmd {
	h.filters = append(h.filters, text)
	return nil
}

// TestViewHostileURI: a URI from the server is shown escaped.
func TestViewHostileURI(t *testing.T) {
	w := &wire{}
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://\u001b]0;PWNED\u0007\u001b[2J\u202e"}}`)
	h := screentest.NewHost()
	v := Open(h, w.book())
	screentest.AssertSafeView(t, "the list", h.View(v, 120, 4))
}

// FuzzSubsBookNote: any message of the kinds the book reads is read
// without a panic, and the view draws the book.
func FuzzSubsBookNote(f *testing.F) {
	f.Add(`resources/subscribe`, []byte(`{"uri":"a"}`), true, false)
	f.Add(`notifications/subscriptions/acknowledged`, []byte(`{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{"resourceSubscriptions":["a"]}}`), false, false)
	f.Add(`subscriptions/listen`, []byte(`{"notifications":{"resourceSubscriptions":["a",1]}}`), true, false)
	f.Fuzz(func(t *testing.T, method string, params []byte, request, out bool) {
		b := NewBook()
		id := jsonrpc.IntID(1)
		dir := capture.In
		if out {
			dir = capture.Out
		}
		m := &jsonrpc.Message{Method: method, Params: params}
		if request {
			m.ID = &id
		}
		b.Note(&capture.Frame{Seq: 1, Dir: capture.Out, Msg: m})
		b.Note(&capture.Frame{Seq: 2, Dir: dir, Msg: &jsonrpc.Message{Method: method, Params: params}})
		b.Note(&capture.Frame{Seq: 3, Dir: capture.In, Msg: &jsonrpc.Message{ID: &id, Result: params}})
		v := Open(screentest.NewHost(), b)
		v.Render(60, 5)
	})
}

// TestBookLongURI: a URI past maxURI is not tracked, only counted.
func TestBookLongURI(t *testing.T) {
	w := &wire{}
	w.add(capture.In, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://`+strings.Repeat("u", maxURI)+`"}}`)
	if b := w.book(); len(b.Resources()) != 0 || b.Untracked != 1 {
		t.Errorf("%d resources, %d untracked", len(b.Resources()), b.Untracked)
	}
}
