package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// flowTarget turns the https URL of a test server into a wt:// target.
func flowTarget(ts *wttest.Server) string {
	return "wt://" + strings.TrimPrefix(ts.URL, "https://")
}

// flowServer answers read_file with a stream of size bytes (result first,
// with a progress and a log datagram before it) and echo with its text.
func flowServer(t *testing.T, size int) *wttest.Server {
	return wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		switch {
		case m.Method == mcp.MethodToolsCall && wttest.ToolName(m) == "read_file":
			id := wttest.FlowID(t, m)
			logBody, _ := flow.LogDatagram{Level: "info", Logger: "read_file", Data: json.RawMessage(`"reading"`)}.Encode(proto.EncCBOR)
			p.Datagram(flow.ChannelLog, id, logBody)
			p.Result(*m.ID, map[string]any{"content": []any{map[string]any{
				"type": "ref/stream", "streamTag": 1, "mimeType": "application/octet-stream", "size": size}}})
			str := p.OpenStream(id, 1)
			str.Write(wttest.Payload(size, 7))
			str.Close()
		case m.Method == mcp.MethodToolsCall && wttest.ToolName(m) == "inject":
			// Answer once the client has refused the stream, so that the
			// run cannot end before it saw it.
			str := p.OpenStream(4242, 9)
			for _, err := str.Write(make([]byte, 16<<10)); err == nil; _, err = str.Write(make([]byte, 16<<10)) {
			}
			p.Result(*m.ID, map[string]any{"content": []any{}})
		case m.Method == mcp.MethodToolsCall:
			p.Result(*m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": wttest.ToolName(m)}}})
		case m.Method == mcp.MethodPing:
			p.Result(*m.ID, map[string]any{})
		}
	}))
}

func TestWTCallSavesStreamsAndPrintsResultOnly(t *testing.T) {
	const size = 1<<20 + 3
	ts := flowServer(t, size)
	dir := filepath.Join(t.TempDir(), "streams")
	r := mcpscope(t, "call", "tools/call", `{"name":"read_file","arguments":{"size":1048579}}`,
		"--cert-hash", ts.Hash, "--stream-out", dir, flowTarget(ts))
	r.mustExit(t, ExitOK)
	var res struct {
		Content []webtransport.StreamRef `json:"content"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Content) != 1 || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("stdout is not just the result JSON: %v\n%s", err, r.stdout)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*-1.bin"))
	if len(files) != 1 {
		t.Fatalf("stream files %v", files)
	}
	got, err := os.ReadFile(files[0])
	if err != nil || !bytes.Equal(got, wttest.Payload(size, 7)) {
		t.Fatalf("saved stream: %d bytes (%v), want the %d generated", len(got), err, size)
	}
	if r.stderr != "" {
		t.Fatalf("stderr is not empty: %s", r.stderr)
	}
}

func TestWTTraceShowsStreamEndsNotChunks(t *testing.T) {
	const size = 2 << 20
	ts := flowServer(t, size)
	r := mcpscope(t, "call", "--trace", "--cert-hash", ts.Hash, "tools/call", `{"name":"read_file"}`, flowTarget(ts))
	r.mustExit(t, ExitOK)
	want := map[string]*regexp.Regexp{
		"CONNECT":      regexp.MustCompile(`→ http \d+B "CONNECT https://127.0.0.1:\d+/mcp HTTP/3`),
		"200":          regexp.MustCompile(`← http \d+B "HTTP/3 200 OK`),
		"initialize":   regexp.MustCompile(`→ control \d+B request initialize id=1$`),
		"result":       regexp.MustCompile(`← control \d+B result id=2$`),
		"stream open":  regexp.MustCompile(`← stream 2/1 8B open$`),
		"stream end":   regexp.MustCompile(`← stream 2/1 done 2097152B of 2097152B in \S+$`),
		"log datagram": regexp.MustCompile(`← datagram 3 req 2 \d+B log info read_file: "reading"$`),
		"$/shutdown":   regexp.MustCompile(`→ control \d+B notification \$/shutdown$`),
	}
	streamLines := 0
	for _, ln := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		for name, re := range want {
			if re.MatchString(ln) {
				delete(want, name)
			}
		}
		if strings.Contains(ln, "stream 2/1") {
			streamLines++
		}
	}
	if len(want) > 0 || streamLines != 2 {
		var missing []string
		for name := range want {
			missing = append(missing, name)
		}
		t.Fatalf("trace lacks %v or has %d stream lines, not 2 (open and end, no chunks):\n%s", missing, streamLines, r.stderr)
	}
	done, shutdown := strings.Index(r.stderr, "stream 2/1 done"), strings.Index(r.stderr, "$/shutdown")
	if shutdown < done {
		t.Fatalf("the run closed before the stream was done:\n%s", r.stderr)
	}
}

func TestWTCertificateFlags(t *testing.T) {
	ts := flowServer(t, 1)
	target := flowTarget(ts)
	echo := `{"name":"echo"}`

	r := mcpscope(t, "call", "tools/call", echo, target)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "not trusted") || !strings.Contains(r.stderr, "--cert-hash "+ts.Hash) {
		t.Fatalf("self-signed without flags: %s", r.stderr)
	}

	r = mcpscope(t, "call", "--insecure", "tools/call", echo, target)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stderr, "WARNING: --insecure") || !strings.Contains(r.stdout, `"echo"`) {
		t.Fatalf("--insecure: stdout %s stderr %s", r.stdout, r.stderr)
	}

	wrong := "sha256:" + strings.Repeat("0", 64)
	r = mcpscope(t, "call", "--cert-hash", wrong, "tools/call", echo, target)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, ts.Hash) || !strings.Contains(r.stderr, wrong) {
		t.Fatalf("wrong hash: %s", r.stderr)
	}

	r = mcpscope(t, "call", "--transport", "wt", "--cert-hash", ts.Hash, "tools/call", echo, ts.URL)
	r.mustExit(t, ExitOK)
}

func TestWTFlagRefusals(t *testing.T) {
	for name, args := range map[string][]string{
		"bad hash":         {"--cert-hash", "md5:abcd"},
		"bad header":       {"--header", "no colon here"},
		"pin and insecure": {"--insecure", "--cert-hash", "sha256:" + strings.Repeat("0", 64)},
		"bad encoding":     {"--encoding", "xml"},
		"env":              {"--env", "A=1"},
	} {
		r := mcpscope(t, append(append([]string{"call"}, args...), "ping", "wt://127.0.0.1:1/mcp")...)
		if r.code != ExitUsage {
			t.Errorf("%s: exit %d, stderr %s", name, r.code, r.stderr)
		}
	}
	r := mcpscope(t, "call", "--transport", "wt", "ping", "http://127.0.0.1:1/mcp")
	r.mustExit(t, ExitUsage)
}

func TestWTEncodingFlagForcesJSON(t *testing.T) {
	offers := make(chan []byte, 1)
	ts := wttest.NewServer(t, func(p *wttest.Peer) {
		frame, ok := p.Handshake("json")
		offers <- frame
		if !ok {
			return
		}
		for m, ok := p.Next(); ok; m, ok = p.Next() {
			if m.Method == mcp.MethodPing {
				p.Result(*m.ID, map[string]any{})
			}
		}
	})
	r := mcpscope(t, "call", "--encoding", "json", "--cert-hash", ts.Hash, "ping", flowTarget(ts))
	r.mustExit(t, ExitOK)
	if first := <-offers; !bytes.Contains(first, []byte(`"encodings":["json"]`)) {
		t.Fatalf("initialize offered %s", first[4:])
	}
}

func TestWTKeyLog(t *testing.T) {
	ts := flowServer(t, 1)
	path := filepath.Join(t.TempDir(), "keys")
	r := mcpscope(t, "call", "--keylog", path, "--cert-hash", ts.Hash, "ping", flowTarget(ts))
	r.mustExit(t, ExitOK)
	b, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(b, []byte("CLIENT_HANDSHAKE_TRAFFIC_SECRET ")) {
		t.Fatalf("key log: %v %q", err, b)
	}
}

func TestWTWarnsOfInjectedStreams(t *testing.T) {
	ts := flowServer(t, 1)
	r := mcpscope(t, "call", "--cert-hash", ts.Hash, "tools/call", `{"name":"inject"}`, flowTarget(ts))
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stderr, "warning: -32002 Stream Injection: the server opened an execution stream for request 4242 tag 9") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}
