package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// hostileID is an event id a server could send to take over a terminal.
const hostileID = "\x1b]0;pwn\x07"

// sseEvent captures one SSE event frame on conn and counts it in its stream.
func sseEvent(t *testing.T, st *capture.Store, conn, id string, m *jsonrpc.Message) {
	t.Helper()
	body, err := m.EncodeJSON()
	if err != nil {
		t.Fatal(err)
	}
	raw := []byte("id: " + id + "\ndata: " + string(body) + "\n\n")
	f := &capture.Frame{Time: t0, Dir: capture.In, Conn: conn, Chan: capture.Channel{Kind: capture.Control},
		Raw: raw, Size: len(raw), Fields: httphead.SSEEventFields(raw), Enc: proto.EncJSON, Msg: m}
	st.SSEEvent(conn, st.Append(f), int64(len(raw)), id)
}

// addSSEStreams gives st the SSE streams of an HTTP session: an answered
// tools/call, the GET stream (whose last event id is hostile), a
// subscription, a tools/call cut before its answer and its cancelled
// resume.
func addSSEStreams(t *testing.T, st *capture.Store) {
	t.Helper()
	st.OpenSSE("http POST 2", capture.SSEStart{Kind: capture.SSEAnswer, Method: "tools/call", ReqID: "2"})
	sseEvent(t, st, "http POST 2", "a1", notification(t, "notifications/progress", map[string]any{"progress": 1}))
	sseEvent(t, st, "http POST 2", "a2", result(t, 2, map[string]any{"content": []any{}}))
	st.EndSSE("http POST 2", capture.SSEDone, "")
	st.OpenSSE("http GET 3", capture.SSEStart{Kind: capture.SSEGet})
	sseEvent(t, st, "http GET 3", hostileID, notification(t, "notifications/tools/list_changed", nil))
	st.OpenSSE("http POST 4", capture.SSEStart{Kind: capture.SSEAnswer, Method: mcp.MethodSubscriptionsListen, ReqID: "4"})
	st.OpenSSE("http POST 5", capture.SSEStart{Kind: capture.SSEAnswer, Method: "tools/call", ReqID: "5"})
	sseEvent(t, st, "http POST 5", "e1", notification(t, "notifications/progress", map[string]any{"progress": 1}))
	st.EndSSE("http POST 5", capture.SSEBroken, "the server closed it before the answer")
	st.OpenSSE("http GET 6", capture.SSEStart{Kind: capture.SSEResume, Method: "tools/call", ReqID: "5", Of: "http POST 5", After: "e1"})
	st.EndSSE("http GET 6", capture.SSECancelled, "to cancel tools/call (id 5)")
}

// TestStreamsListSSE: each SSE stream is a row with its connection, what
// it carries (a subscription named as such), events, bytes, last event
// id (escaped: a hostile id never reaches the terminal raw), state and
// why; the title counts them.
func TestStreamsListSSE(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 140, 40)
	m.streams.link = sseStreams
	addSSEStreams(t, st)
	m.Update(refreshMsg{at: t0})
	title := m.streams.Title()
	if !strings.HasPrefix(title, "SSE streams · 5 · 2 open · http GET 6 cancelled: to cancel tools/call (id 5)") {
		t.Errorf("title %q", title)
	}
	body := m.streams.Render(120, 8, true)
	for _, want := range []string{"subscription #4", "tools/call #2", "GET stream", "tools/call #5, resumed", "broken", "cancelled", "done"} {
		if !strings.Contains(body, want) {
			t.Errorf("the pane lacks %q:\n%s", want, body)
		}
	}
	if strings.ContainsAny(body, "\x07") || strings.Contains(body, "\x1b]0") {
		t.Errorf("the hostile event id reached the pane raw: %q", body)
	}
	if !strings.Contains(body, `\x1b]0;pwn`) {
		t.Errorf("the hostile event id is not shown escaped:\n%s", body)
	}
	golden(t, "streams_sse", title+"\n"+body)
	golden(t, "streams_sse_narrow", m.streams.Render(80, 8, false))
}

// TestStreamsEnterOnSSERow: enter on an SSE row selects the stream's
// first event in the traffic pane and opens its detail.
func TestStreamsEnterOnSSERow(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 140, 40)
	addSSEStreams(t, st)
	m.Update(refreshMsg{at: t0})
	m.setFocus(paneStreams)
	press(m, "home")
	press(m, "enter")
	f := selectedFrame(t, m)
	if f.Conn != "http POST 2" || !strings.HasPrefix(string(f.Raw), "id: a1\n") || m.focus != paneDetail {
		t.Errorf("enter on the first SSE row: selection %d on %q (%q), focus %s", f.Seq, f.Conn, f.Raw, paneNames[m.focus])
	}
}

// TestStreamsSelectionAcrossSections: with execution streams and SSE
// streams both, the selection and scrolling run over both sections, the
// SSE section's header scrolls with its first row, and a click selects an
// SSE row.
func TestStreamsSelectionAcrossSections(t *testing.T) {
	st := sampleStore(t) // one execution stream, 2/1
	m := newTestModel(t, st, 140, 40)
	addSSEStreams(t, st)
	m.Update(refreshMsg{at: t0})
	if title := m.streams.Title(); !strings.HasPrefix(title, "Streams · 6 · 2 open") {
		t.Errorf("title %q", title)
	}
	m.setFocus(paneStreams)
	m.streams.SetSize(120, 4) // a header and three rows
	press(m, "home")
	if _, ok := m.streams.selected(); !ok {
		t.Fatal("home does not select the execution stream")
	}
	golden(t, "streams_both_top", m.streams.Render(120, 4, true))
	press(m, "down")
	if s, ok := m.streams.selectedSSE(); !ok || s.Conn != "http POST 2" {
		t.Fatalf("down from the last execution stream selects %+v", s)
	}
	press(m, "end")
	if s, ok := m.streams.selectedSSE(); !ok || s.Conn != "http GET 6" {
		t.Fatalf("end selects %+v", s)
	}
	body := m.streams.Render(120, 4, true)
	if !strings.Contains(body, "http GET 6") || strings.Contains(body, "2/1") || !strings.Contains(body, "req/tag") {
		t.Errorf("the last row is not in view under the sticky header:\n%s", body)
	}
	press(m, "up")
	press(m, "up")
	press(m, "up")
	press(m, "up") // http POST 2, the SSE section's first row: its header comes into view
	if body := m.streams.Render(120, 4, true); !strings.Contains(body, "SSE stream") || !strings.Contains(body, "http POST 2") {
		t.Errorf("the SSE header is not in view with its first row:\n%s", body)
	}
	m.streams.clickRow(3) // under the column header: the SSE header, http POST 2, http GET 3
	if s, ok := m.streams.selectedSSE(); !ok || s.Conn != "http GET 3" {
		t.Errorf("a click on line 3 selects %+v", s)
	}
	m.streams.clickRow(1) // the SSE section's header: nothing changes
	if s, _ := m.streams.selectedSSE(); s.Conn != "http GET 3" {
		t.Errorf("a click on the SSE header selects %+v", s)
	}
}

// TestHTTPScreenHasStreams: an HTTP link shows the streams pane, empty
// until an SSE stream opens, and tab reaches it; the SSE streams its
// transport states reach the store through the link's sink.
func TestHTTPScreenHasStreams(t *testing.T) {
	f, s := screentest.Connect(t, capture.NewStore(capture.Config{}))
	st := capture.NewStore(capture.Config{})
	var sink capture.Sink
	m := New(Config{Store: st, Target: "http://127.0.0.1/mcp", Dial: func(k capture.Sink) (Link, error) {
		sink = k
		return Link{Transport: httpPeer{f}, Session: s}, nil
	}})
	t.Cleanup(func() { _ = m.Close() })
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 36})
	m.Update(refreshMsg{at: t0})
	screen := screenText(m)
	for _, want := range []string{"SSE streams · 0 · 0 open", "no SSE streams yet"} {
		if !strings.Contains(screen, want) {
			t.Errorf("an HTTP screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "Datagrams") {
		t.Errorf("an HTTP screen shows datagrams:\n%s", screen)
	}
	if got := strings.Join(focusCycle(t, m, "tab"), " "); !strings.HasPrefix(got, "Streams ") {
		t.Errorf("tab visits %s", got)
	}
	tr, ok := sink.(capture.Tap)
	if !ok {
		t.Fatalf("the link's sink %T does not take notes", sink)
	}
	tr.Note(capture.SSEOpened{Conn: "http GET 2", Start: capture.SSEStart{Kind: capture.SSEGet}})
	m.Update(refreshMsg{at: t0})
	if screen := screenText(m); !strings.Contains(screen, "SSE streams · 1 · 1 open") || !strings.Contains(screen, "GET stream") {
		t.Errorf("the opened GET stream is not listed:\n%s", screen)
	}
}

// TestLaterLinkRenamesSSEStreams: the sink of a later link generation
// names the connections of its SSE streams, and the stream a resume
// continues, with the generation.
func TestLaterLinkRenamesSSEStreams(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	k := capture.OnConn(st, "#2")
	k.Note(capture.SSEOpened{Conn: "h GET 4", Start: capture.SSEStart{Kind: capture.SSEResume, Of: "h POST 3"}})
	k.Note(capture.SSEEventSeen{Conn: "h GET 4", Size: 9, LastID: "x"})
	k.Note(capture.SSEEnded{Conn: "h GET 4", State: capture.SSEDone})
	got := st.SSEStreams()
	if len(got) != 1 || got[0].Conn != "h GET 4#2" || got[0].Of != "h POST 3#2" || got[0].Events != 1 || got[0].State != capture.SSEDone {
		t.Errorf("streams %+v", got)
	}
}
