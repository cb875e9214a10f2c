package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// A session's requests are answered from the recording under the
// client's ids: initialize whatever the client offers, the messages sent
// outside any request after notifications/initialized, equal requests in
// recorded order then the last again, progress under the client's token
// with the server's own request in its place, a recorded error as it was.
func TestHandleAnswersFromTheRecording(t *testing.T) {
	c := load(t, session).NewConn()
	for _, step := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{"roots":{}},"clientInfo":{"name":"other","version":"9"}}}`,
			`{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"1"}}}`},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ready"}}`},
		{`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"arguments":{"message":"hi"},"name":"echo","_meta":{"progressToken":"x","io.modelcontextprotocol/clientInfo":{}}}}`,
			`{"jsonrpc":"2.0","id":10,"result":{"content":[{"type":"text","text":"first"}]}}`},
		{`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`,
			`{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"second"}]}}`},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`,
			`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"second"}]}}`},
		{`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"slow","arguments":{"steps":2},"_meta":{"progressToken":"mine"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":"mine","total":2}}` + "\n" +
				`{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}` + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2,"progressToken":"mine","total":2}}` + "\n" +
				`{"jsonrpc":"2.0","id":13,"result":{"content":[{"type":"text","text":"done"}]}}`},
		{`{"jsonrpc":"2.0","id":0,"result":{"role":"assistant","content":{"type":"text","text":"ok"},"model":"m"}}`, ``},
		{`{"jsonrpc":"2.0","id":14,"method":"prompts/get","params":{"name":"nope"}}`,
			`{"jsonrpc":"2.0","id":14,"error":{"code":-32602,"message":"no prompt nope"}}`},
		{`{"jsonrpc":"2.0","id":15,"method":"ping"}`, `{"jsonrpc":"2.0","id":15,"result":{}}`},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":13}}`, ``},
	} {
		got := strings.TrimSuffix(lines(c.Handle([]byte(step.in))), "\n")
		if got != step.want {
			t.Errorf("Handle(%s):\n%s\nwant:\n%s", step.in, got, step.want)
		}
	}
}

// A request the recording does not hold gets an error naming the closest
// recorded one: -32602 and the fewest differing members for a recorded
// method, -32601 and the nearest method name otherwise; a request left
// unanswered in the recording is not served.
func TestHandleNamesTheClosest(t *testing.T) {
	c := load(t, session).NewConn()
	for _, step := range []struct {
		in            string
		code          int
		message, data string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"ho"}}}`, -32602,
			`the recording holds no tools/call request with these params; the closest differs in 1 member ($.params.arguments.message: recorded "hi", got "ho"): tools/call {"arguments":{"message":"hi"},"name":"echo"}`,
			`{"closest":{"method":"tools/call","params":{"arguments":{"message":"hi"},"name":"echo"}}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"tool/call","params":{}}`, -32601,
			`the recording holds no tool/call request; the closest recorded is tools/call {"arguments":{"message":"hi"},"name":"echo"}`,
			`{"closest":{"method":"tools/call","params":{"arguments":{"message":"hi"},"name":"echo"}}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///never"}}`, -32601,
			`the recording holds no resources/read request; the closest recorded is prompts/get {"name":"nope"}`,
			`{"closest":{"method":"prompts/get","params":{"name":"nope"}}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call\u001b[2J","params":{}}`, -32601,
			`the recording holds no tools/call\x1b[2J request; the closest recorded is tools/call {"arguments":{"message":"hi"},"name":"echo"}`, ``},
	} {
		out := c.Handle([]byte(step.in))
		var m struct {
			Error struct {
				Code    int             `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			} `json:"error"`
		}
		if len(out) != 1 || json.Unmarshal(out[0], &m) != nil {
			t.Fatalf("Handle(%s) = %s", step.in, lines(out))
		}
		if m.Error.Code != step.code || m.Error.Message != step.message || (step.data != "" && string(m.Error.Data) != step.data) {
			t.Errorf("Handle(%s):\n%d %s %s\nwant:\n%d %s %s", step.in, m.Error.Code, m.Error.Message, m.Error.Data, step.code, step.message, step.data)
		}
	}
}

// --ignore paths make a request match whatever those members hold.
func TestHandleIgnores(t *testing.T) {
	c := load(t, session, "$.params.arguments.message").NewConn()
	got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"other"}}}`)))
	if !strings.Contains(got, `"text":"first"`) {
		t.Errorf("ignored member still compared: %s", got)
	}
	if _, err := Load(writeRecording(t, session), "params"); err == nil || !strings.Contains(err.Error(), `--ignore "params"`) {
		t.Errorf("a bad path: %v", err)
	}
}

// Broken input gets an error answer, never a panic: not JSON, not
// JSON-RPC, a batch answered message by message.
func TestHandleBrokenInput(t *testing.T) {
	c := load(t, session).NewConn()
	for in, want := range map[string]string{
		`{"jsonrpc":`:                 `"code":-32700`,
		`{"jsonrpc":"2.0","id":true}`: `"code":-32600`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"nothing"}]`: `"id":2,"error":{"code":-32601`,
	} {
		if got := lines(c.Handle([]byte(in))); !strings.Contains(got, want) {
			t.Errorf("Handle(%s) = %s, want %s", in, got, want)
		}
	}
}

// A recording without an answered request is refused at load; corrupt
// lines are skipped with a warning naming them.
func TestLoadRefusesWhatItCannotServe(t *testing.T) {
	_, err := Load(writeRecording(t, session[len(session)-1:]))
	if !errors.Is(err, ErrNoRequests) {
		t.Errorf("no answered request: %v", err)
	}
	rec, err := Load(writeRecording(t, session, `{"k":"frame","dir":"sideways"}`, `not json`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Warnings) != 2 || !strings.Contains(rec.Warnings[0], "line 20") || rec.Requests != 5 {
		t.Errorf("warnings %q, %d requests", rec.Warnings, rec.Requests)
	}
	if _, err := Load(writeRecording(t, nil)[:0] + "/nonexistent"); err == nil {
		t.Error("a missing file loaded")
	}
}

// FuzzMockHandle feeds arbitrary messages to a Conn: each gets an answer
// or nothing, never a panic, and every answer is JSON.
func FuzzMockHandle(f *testing.F) {
	for _, fr := range session {
		f.Add([]byte(fr.body))
	}
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`))
	rec := load(f, session)
	f.Fuzz(func(t *testing.T, msg []byte) {
		c := rec.NewConn()
		for _, out := range c.Handle(msg) {
			if !json.Valid(out) {
				t.Fatalf("Handle(%q) sent %q: not JSON", msg, out)
			}
		}
	})
}

// BenchmarkHandle answers a matched tools/call: what one request costs
// the mock.
func BenchmarkHandle(b *testing.B) {
	c := load(b, session).NewConn()
	msg := []byte(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if len(c.Handle(msg)) != 1 {
			b.Fatal("no answer")
		}
	}
}

// FuzzMockLoad reads arbitrary sessions, a message a line ('>' from the
// client, else from the server, on connections "a" and "b" by the second
// byte), then sends the client's messages again: never a panic, every
// answer JSON.
func FuzzMockLoad(f *testing.F) {
	var seed strings.Builder
	for _, fr := range session {
		dir := "<"
		if fr.dir == "out" {
			dir = ">"
		}
		seed.WriteString(dir + "a" + fr.body + "\n")
	}
	f.Add(seed.String())
	f.Add(">a{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}\n<a{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"Bad Request\"}}\n>a{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n<a{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}")
	f.Add(">a{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\n<b{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n<a{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}")
	f.Fuzz(func(t *testing.T, text string) {
		var frames []frame
		var sent [][]byte
		for _, l := range strings.Split(text, "\n") {
			if len(l) < 2 {
				continue
			}
			fr := frame{dir: "in", conn: l[1:2], body: l[2:]}
			if l[0] == '>' {
				fr.dir = "out"
				sent = append(sent, []byte(fr.body))
			}
			frames = append(frames, fr)
		}
		rd, err := recordings.NewReader(bytes.NewReader(recordingText(t, frames)))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := read(rd)
		if err != nil {
			return
		}
		rec.opts, _ = against.CompareOptions(nil)
		c := rec.NewConn()
		for _, m := range sent {
			for _, out := range c.Handle(m) {
				if !json.Valid(out) {
					t.Fatalf("Handle(%q) sent %q: not JSON", m, out)
				}
			}
		}
	})
}

// Over legacy HTTP+SSE the answers come on the GET stream, not on the
// POST that carried the request: they are the requests' answers all the
// same, and a progress notification goes with its request by token.
func TestAnswersOnTheSSEStream(t *testing.T) {
	c := load(t, []frame{
		{"out", "http POST 2", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":1}}}`},
		{"in", "http GET 1", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`},
		{"in", "http GET 1", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
	}).NewConn()
	got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"t"}}}`)))
	want := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":"t"}}` + "\n" + `{"jsonrpc":"2.0","id":5,"result":{"content":[]}}` + "\n"
	if got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
}
