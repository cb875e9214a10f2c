package mock

import (
	"encoding/json"
	"strings"
	"testing"
)

// An error of id null (what a server answers to a request it cannot
// read) names no request: loading goes on.
func TestLoadErrorOfIDNull(t *testing.T) {
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":2,"result":{}}`},
	})
	if rec.Requests != 1 {
		t.Errorf("%d requests served, want the ping alone", rec.Requests)
	}
}

// A request the client cancelled is closed: what the server sends after
// it goes with later requests, or outside any.
func TestLoadCancelledRequestEndsItsSpan(t *testing.T) {
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
	})
	c := rec.NewConn()
	c.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	if got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))); !strings.Contains(got, "list_changed") {
		t.Errorf("after the cancelled call, list_changed is not unsolicited: %q", got)
	}
}

// A host pipelines a call and a ping: the server's elicitation goes with
// the call, which can ask one, not with the ping.
func TestLoadServerRequestGoesWithTheAskingRequest(t *testing.T) {
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{}}}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
	})
	c := rec.NewConn()
	call := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}}`)))
	ping := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)))
	if !strings.Contains(call, "elicitation/create") || strings.Contains(ping, "elicitation/create") {
		t.Errorf("call:\n%sping:\n%s", call, ping)
	}
}

// A recorded request nested past what JSON-RPC decoding reads is named
// in a warning, not dropped silently.
func TestLoadWarnsOfAnUnreadableRequest(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":` + deep + `}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{}}`},
	})
	if w := strings.Join(rec.Warnings, "\n"); !strings.Contains(w, "1 messages of the client could not be read") || !strings.Contains(w, "nested deeper") {
		t.Errorf("warnings: %q", rec.Warnings)
	}
}

// A client that asks for no progress gets none: the recorded token names
// nothing of its.
func TestHandleSendsNoProgressUnasked(t *testing.T) {
	c := load(t, session).NewConn()
	got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow","arguments":{"steps":2}}}`)))
	if strings.Contains(got, "notifications/progress") || !strings.Contains(got, "sampling/createMessage") || !strings.Contains(got, `"id":9,"result"`) {
		t.Errorf("without a progress token:\n%s", got)
	}
}

// A recording without a handshake (2026-07-28) has its unsolicited
// messages sent after the first answer, once.
func TestHandleUnsolicitedWithoutHandshake(t *testing.T) {
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
	})
	c := rec.NewConn()
	first := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`)))
	second := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":"b","method":"tools/list"}`)))
	if !strings.HasPrefix(first, `{"jsonrpc":"2.0","id":"a","result"`) || !strings.Contains(first, "list_changed") || strings.Contains(second, "list_changed") {
		t.Errorf("first:\n%ssecond:\n%s", first, second)
	}
}

// The closest request's error names the member that differs, with the
// recorded and the sent value.
func TestHandleNamesTheDifferingMember(t *testing.T) {
	long := strings.Repeat("y", 5000)
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"text":"` + long + `","mode":"fast"}}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{}}`},
	})
	out := rec.NewConn().Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"text":"` + long + `","mode":"slow"}}}`))
	var m struct {
		Error struct{ Message string }
	}
	if len(out) != 1 || json.Unmarshal(out[0], &m) != nil {
		t.Fatalf("%q", out)
	}
	if !strings.Contains(m.Error.Message, `($.params.arguments.mode: recorded "fast", got "slow")`) || len(m.Error.Message) > 600 {
		t.Errorf("%d bytes: %s", len(m.Error.Message), m.Error.Message)
	}
}

// Many recorded requests of one method: the one a request names is
// found by its key, any of them.
func TestHandleFindsAmongMany(t *testing.T) {
	var fr []frame
	for i := range maxScan + 10 {
		fr = append(fr,
			frame{"out", "stdio", `{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"x","arguments":{"i":` + itoa(i) + `},"_meta":{"progressToken":` + itoa(i) + `}}}`},
			frame{"in", "stdio", `{"jsonrpc":"2.0","id":` + itoa(i) + `,"result":{"i":` + itoa(i) + `}}`})
	}
	c := load(t, fr).NewConn()
	last := itoa(maxScan + 9)
	got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"i":` + last + `},"name":"x"}}`)))
	if got != `{"jsonrpc":"2.0","id":1,"result":{"i":`+last+`}}`+"\n" {
		t.Errorf("the request past the scanned ones: %s", got)
	}
}

// itoa is strconv.Itoa, short.
func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// FlowUnits counts the recorded MCP-Flow streams and datagrams.
func TestFlowUnits(t *testing.T) {
	path := writeRecording(t, session,
		`{"k":"frame","t":2,"dir":"in","conn":"a","ch":"stream","req":4,"tag":1,"hex":"00"}`,
		`{"k":"frame","t":2,"dir":"in","conn":"a","ch":"stream","req":4,"tag":1,"hex":"01"}`,
		`{"k":"frame","t":2,"dir":"in","conn":"a","ch":"datagram","req":4,"chan":1,"hex":"02"}`)
	rec, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s, d := rec.FlowUnits(); s != 1 || d != 1 {
		t.Errorf("FlowUnits = %d streams, %d datagrams; warnings %q", s, d, rec.Warnings)
	}
}

// Two calls in flight: the server's elicitation goes with the call the
// server answers right after the client's response to it.
func TestLoadServerRequestGoesWithTheRequestAnsweredAfterIt(t *testing.T) {
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask"}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{}}}}`},
		{"out", "stdio", `{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
	})
	c := rec.NewConn()
	slow := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)))
	ask := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask"}}`)))
	if strings.Contains(slow, "elicitation/create") || !strings.Contains(ask, "elicitation/create") {
		t.Errorf("slow:\n%sask:\n%s", slow, ask)
	}
}
