package ui

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// mrtrStore holds a three-round call of one tool (state "s1", then "s2",
// then complete), an unrelated call in between, and a two-round call of
// another tool whose server gives no requestState.
func mrtrStore(t *testing.T) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	out := func(id int64, params string) {
		st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, id, mcp.MethodToolsCall, rawJSON(params))))
	}
	in := func(id int64, res string) {
		st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, id, rawJSON(res))))
	}
	ask := func(state string) string {
		s := `{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"?"}}}}`
		if state != "" {
			s = strings.TrimSuffix(s, "}") + `,"requestState":"` + state + `"}`
		}
		return s
	}
	out(1, `{"name":"wizard"}`)
	in(1, ask("s1"))
	out(2, `{"name":"other"}`)
	out(3, `{"name":"wizard","inputResponses":{"k":{"action":"accept"}},"requestState":"s1"}`)
	in(2, `{"content":[]}`)
	in(3, ask("s2"))
	out(4, `{"name":"wizard","inputResponses":{"k":{"action":"accept"}},"requestState":"s2"}`)
	in(4, `{"content":[{"type":"text","text":"done"}]}`)
	out(5, `{"name":"stateless"}`)
	in(5, ask(""))
	out(6, `{"name":"stateless","inputResponses":{"k":{"action":"decline"}}}`)
	in(6, `{"content":[]}`)
	// A retry naming a state nobody asked for stays a call of its own.
	out(7, `{"name":"wizard","inputResponses":{},"requestState":"forged"}`)
	return st
}

// labelOf returns the traffic label of the frame with seq.
func labelOf(t *testing.T, m *Model, seq uint64) string {
	t.Helper()
	f, ok := m.cfg.Store.Get(seq)
	if !ok {
		t.Fatalf("no frame %d", seq)
	}
	label, _ := frameLabel(f, m.idx, mcp.DialectMCP)
	return label
}

// TestRoundsGrouped: the rows of an MRTR call name their round, the l key
// walks every frame of every round in order and wraps around, and calls
// that are not rounds keep their labels.
func TestRoundsGrouped(t *testing.T) {
	m := newTestModel(t, mrtrStore(t), 140, 40)
	want := map[uint64]string{
		1: "tools/call · round 1 · wizard", 2: "result · tools/call · round 1 · wizard",
		3: "tools/call other", 4: "tools/call · round 2 · wizard", 5: "result · tools/call other",
		6: "result · tools/call · round 2 · wizard", 7: "tools/call · round 3 · wizard", 8: "result · tools/call · round 3 · wizard",
		9: "tools/call · round 1 · stateless", 11: "tools/call · round 2 · stateless", 12: "result · tools/call · round 2 · stateless",
		13: "tools/call wizard",
	}
	for seq, label := range want {
		if got := labelOf(t, m, seq); got != label {
			t.Errorf("frame %d: %q, want %q", seq, got, label)
		}
	}
	m.traffic.selectSeq(1)
	m.syncSelection()
	var walked []uint64
	for range 7 {
		press(m, "l")
		walked = append(walked, selectedFrame(t, m).Seq)
	}
	if !slices.Equal(walked, []uint64{2, 4, 6, 7, 8, 1, 2}) {
		t.Errorf("l walked %v, want every round's frames and around", walked)
	}
	m.traffic.selectSeq(3)
	m.syncSelection()
	press(m, "l")
	if got := selectedFrame(t, m).Seq; got != 5 {
		t.Errorf("l from another call went to %d", got)
	}
	if !strings.Contains(plainView(m), "tools/call · round 3 · wizard") {
		t.Errorf("the traffic pane does not show the rounds:\n%s", plainView(m))
	}
}

// TestRoundsBounded: asks that are never retried are forgotten past the
// bound, and a group stops growing at its cap.
func TestRoundsBounded(t *testing.T) {
	x := newIndex()
	for i := range maxRoundAsks + 10 {
		x.rounds.ask(roundAsk{conn: "c", label: "tools/call x", state: string(rune('a'+i%26)) + strings.Repeat("z", i/26)}, callKey{id: "1"})
	}
	if len(x.rounds.asks) != maxRoundAsks || len(x.rounds.order) != maxRoundAsks {
		t.Errorf("%d asks, %d in order; want %d", len(x.rounds.asks), len(x.rounds.order), maxRoundAsks)
	}
	st := capture.NewStore(capture.Config{})
	for i := int64(1); i <= 2*maxRoundCalls; i++ {
		params := `{"name":"loop"}`
		if i > 1 {
			params = `{"name":"loop","requestState":"r` + itoa(i-1) + `"}`
		}
		st.Append(controlFrame(t, capture.Out, t0, proto.EncJSON, request(t, i, mcp.MethodToolsCall, rawJSON(params))))
		res, _ := json.Marshal(map[string]any{"resultType": "input_required", "requestState": "r" + itoa(i)})
		st.Append(controlFrame(t, capture.In, t0, proto.EncJSON, result(t, i, json.RawMessage(res))))
	}
	x.catchUp(st)
	c, ok := x.lookup(firstFrame(t, st))
	if !ok || c.group == nil || len(c.group.calls) != maxRoundCalls {
		t.Fatalf("group of the first call: %+v", c)
	}
}

// itoa formats n.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// firstFrame is the frame with Seq 1.
func firstFrame(t *testing.T, st *capture.Store) *capture.Frame {
	t.Helper()
	f, ok := st.Get(1)
	if !ok {
		t.Fatal("the store is empty")
	}
	return f
}
