package mock

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frame is one control message of a recording a test writes: "out" from
// the client, "in" from the server, on a connection.
type frame struct{ dir, conn, body string }

// writeRecording writes a recording of frames and returns its path;
// extra lines (corrupt ones, say) go after them.
func writeRecording(t testing.TB, frames []frame, extra ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.mcpscope.jsonl")
	if err := os.WriteFile(path, recordingText(t, frames, extra...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// recordingText is a recording of frames and extra lines.
func recordingText(t testing.TB, frames []frame, extra ...string) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"format":"mcpscope-recording","version":1,"mcpscope":"0.1.0","target":"test","transport":"stdio","started":"2026-01-01T00:00:00Z","redaction":"default","stream_max":67108864}` + "\n")
	for _, f := range frames {
		line, err := json.Marshal(map[string]any{"k": "frame", "t": 1, "dir": f.dir, "conn": f.conn, "ch": "control", "text": f.body + "\n", "mtext": f.body})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	for _, l := range extra {
		b.WriteString(l + "\n")
	}
	return []byte(b.String())
}

// session is a recorded session over stdio: a handshake, a log message
// outside any request, two calls of echo with the same arguments
// answered differently, a call with progress and a sampling request, and
// an error answer.
var session = []frame{
	{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"rec","version":"1"}}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"1"}}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{"in", "stdio", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
	{"in", "stdio", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ready"}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":"p2"}}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"first"}]}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"second"}]}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","arguments":{"steps":2},"_meta":{"progressToken":7}}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1,"total":2}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","id":0,"result":{"role":"assistant","content":{"type":"text","text":"ok"},"model":"m"}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2,"total":2}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"done"}]}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"nope"}}`},
	{"in", "stdio", `{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"no prompt nope"}}`},
	{"out", "stdio", `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"file:///never"}}`},
}

// load writes and loads a recording of frames.
func load(t testing.TB, frames []frame, ignore ...string) *Recording {
	t.Helper()
	rec, err := Load(writeRecording(t, frames), ignore...)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// lines renders messages one a line, for comparing.
func lines(msgs [][]byte) string {
	var b strings.Builder
	for _, m := range msgs {
		b.Write(m)
		b.WriteByte('\n')
	}
	return b.String()
}
