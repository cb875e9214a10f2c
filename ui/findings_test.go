package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// bomLine appends to st a notification from the server that starts with
// a byte order mark: an error finding on bytes 0–2.
func bomLine(t *testing.T, st *capture.Store) uint64 {
	t.Helper()
	body := "\ufeff" + `{"jsonrpc":"2.0","method":"notifications/x"}`
	raw := []byte(body + "\n")
	msgs, _, err := jsonrpc.DecodeJSON([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "stdio", Raw: raw, Size: len(raw),
		Fields: jsonrpc.LineFields(raw), Enc: proto.EncJSON, Msg: msgs[0], Err: jsonrpc.CheckText([]byte(body))})
}

// endpointEvent appends to st the endpoint event of the legacy HTTP+SSE
// transport: a warning finding (deprecated-http-sse), once a session.
func endpointEvent(st *capture.Store, conn string) uint64 {
	raw := []byte("event: endpoint\ndata: /messages?s=1\n\n")
	return st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: conn, Raw: raw, Size: len(raw), Fields: httphead.SSEEventFields(raw), Enc: proto.EncText})
}

// stdioLine appends to st a stdio line going dir, its message decoded.
func stdioLine(t *testing.T, st *capture.Store, dir capture.Dir, body string) {
	t.Helper()
	raw := []byte(body + "\n")
	msgs, _, err := jsonrpc.DecodeJSON([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	st.Append(&capture.Frame{Time: t0, Dir: dir, Conn: "stdio", Raw: raw, Size: len(raw), Fields: jsonrpc.LineFields(raw), Enc: proto.EncJSON, Msg: msgs[0]})
}

// The filter words finding and finding:SEVERITY let through the frames
// with a finding, of any severity or of one.
func TestFilterFindingWords(t *testing.T) {
	st := sampleStore(t)
	endpointEvent(st, "sse GET 1")
	m := newTestModel(t, st, 140, 40)
	checkFilterCounts(t, m, []filterCount{
		{"finding", 2}, {"finding:error", 1}, {"finding:warning", 1}, {"finding:note", 0}, {"< finding:warning", 1},
		{"> finding", 0}, {"FINDING:ERROR", 1},
	})
}

// The status bar counts the findings at the highest severity seen, and
// a traffic row with a finding is marked.
func TestStatusBarCountsFindings(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	endpointEvent(st, "sse GET 1")
	endpointEvent(st, "stdio")
	m := newTestModel(t, st, 140, 40)
	if s := screenText(m); !strings.Contains(s, "2 warnings") || !strings.Contains(s, findingMark) {
		t.Errorf("screen:\n%s", s)
	}
	m = newTestModel(t, sampleStore(t), 140, 40)
	if s := screenText(m); !strings.Contains(s, " 1 error") || strings.Contains(s, "warnings") {
		t.Errorf("screen:\n%s", s)
	}
}

// Enter on a finding in the Findings view (!) selects its frame in the
// traffic and marks its bytes in the hex pane, which gets the keys.
func TestFindingShowsItsBytes(t *testing.T) {
	st := sampleStore(t)
	seq := bomLine(t, st)
	m := newTestModel(t, st, 140, 40)
	m.traffic.selectSeq(1)
	m.syncSelection()
	press(m, "!")
	if m.overlay == nil || !strings.Contains(screenText(m), "byte-order-mark") {
		t.Fatalf("the Findings view is not open:\n%s", screenText(m))
	}
	press(m, "down") // the byte-order-mark heading, its finding (before frame-undecoded's)
	press(m, "enter")
	if f, ok := m.traffic.selected(); !ok || f.Seq != seq || m.focus != paneHex {
		t.Fatalf("selected %v, focus %v", f, m.focus)
	}
	if m.hex.mark.Offset != 0 || m.hex.mark.Len != 3 {
		t.Errorf("hex mark %+v", m.hex.mark)
	}
}

// A replay finds, from the recording, what the live session found: the
// same codes on the same frames, in the Findings view and the status bar.
func TestReplayFindsWhatTheLiveSessionFound(t *testing.T) {
	live, path := recordSample(t, "wt")
	lm := newTestModel(t, live, 140, 40)
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	codes := func(m *Model) string {
		var out []string
		for _, f := range m.idx.views.findings.Findings() {
			out = append(out, fmt.Sprintf("%d %s", f.Seq, f.Code))
		}
		return strings.Join(out, ",")
	}
	if got, want := codes(r.inner), codes(lm); got != want || want == "" {
		t.Errorf("replay found %q, live %q", got, want)
	}
	if s := screenText(r.inner); !strings.Contains(s, "1 error") {
		t.Errorf("replay screen:\n%s", s)
	}
}

// A flood of notifications between a request and its answer makes the
// index skip the oldest frames, the request among them: its clean answer
// is no error.
func TestSkippedFramesMakeNoFinding(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	add := func(dir capture.Dir, body string) { stdioLine(t, st, dir, body) }
	add(capture.Out, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}`)
	for range maxScan + 10 {
		add(capture.In, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`)
	}
	add(capture.In, `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`)
	m := newTestModel(t, st, 140, 40)
	for _, f := range m.idx.views.findings.Findings() {
		t.Errorf("finding on a clean session: %s", f)
	}
	if s := screenText(m); strings.Contains(s, "1 error") {
		t.Errorf("the status bar counts an error:\n%s", s)
	}
}

// A viewer that joined a live session after the proxy let its first
// frames go is told so first: an answer to a request among them is no
// error, while one to a request never sent after it joined still is.
func TestJoinedLateMakesNoFinding(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	add := func(dir capture.Dir, body string) { stdioLine(t, st, dir, body) }
	st.Append(proxy.Mark{What: proxy.WhatJoined, Note: "40 earlier frames were let go before this viewer joined"}.Frame(capture.In, ""))
	add(capture.In, `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`)
	m := newTestModel(t, st, 140, 40)
	for _, f := range m.idx.views.findings.Findings() {
		t.Errorf("finding on a session joined late: %s", f)
	}
	add(capture.Out, `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	add(capture.In, `{"jsonrpc":"2.0","id":8,"result":{}}`)
	add(capture.In, `{"jsonrpc":"2.0","id":8,"result":{}}`)
	m = newTestModel(t, st, 140, 40)
	if n := len(m.idx.views.findings.Findings()); n != 1 {
		t.Errorf("%d findings, want 1: the second answer to id 8", n)
	}
}
