package against

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// An error of id null (a server's answer to a request it could not read)
// names no request: the recording reads, the request it did not answer
// is skipped.
func TestReadErrorOfIDNull(t *testing.T) {
	var b []byte
	b = append(b, `{"format":"mcpscope-recording","version":1,"mcpscope":"0.1.0","target":"test","transport":"stdio","started":"2026-01-01T00:00:00Z","redaction":"default","stream_max":67108864}`+"\n"...)
	for _, f := range []struct{ dir, body string }{
		{"out", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"in", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request"}}`},
		{"out", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no"}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"in", `{"jsonrpc":"2.0","id":2,"result":{}}`},
	} {
		line, _ := json.Marshal(map[string]any{"k": "frame", "t": 1, "dir": f.dir, "conn": "stdio", "ch": "control", "text": f.body + "\n", "mtext": f.body})
		b = append(append(b, line...), '\n')
	}
	path := filepath.Join(t.TempDir(), "s.mcpscope.jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.steps) != 2 || s.steps[1].want == nil {
		t.Errorf("steps: %+v", s.steps)
	}
}
