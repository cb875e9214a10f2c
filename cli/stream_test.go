package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/client/gatewaystream"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// gatewayScript is a scripted seed-003 gateway: it reads the client's
// stream (start, chunks, done) and then answers as answer says.
type gatewayScript struct {
	mu     sync.Mutex
	start  *gateway.StreamMessage
	chunks [][]byte // binary payloads, or the data of text chunks
	heads  [][]byte // the 24-byte headers of binary chunks
	texts  []int64  // the indexes of text chunks
	done   *gateway.StreamMessage
	conns  int
	answer func(ctx context.Context, c *websocket.Conn, g *gatewayScript)
}

func (g *gatewayScript) url(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(-1)
		g.mu.Lock()
		g.conns++
		g.mu.Unlock()
		ctx := r.Context()
		for {
			typ, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			g.mu.Lock()
			if typ == websocket.MessageBinary {
				g.heads = append(g.heads, append([]byte(nil), data[:24]...))
				g.chunks = append(g.chunks, append([]byte(nil), data[24:]...))
				g.mu.Unlock()
				continue
			}
			m, err := gateway.DecodeStreamMessage(data)
			if err != nil {
				g.mu.Unlock()
				t.Errorf("the client sent %s: %v", data, err)
				return
			}
			switch m.Type {
			case gateway.StreamStart:
				g.start = m
			case gateway.StreamChunk:
				g.chunks = append(g.chunks, m.Data)
				g.texts = append(g.texts, *m.Index)
			case gateway.StreamDone:
				g.done = m
			}
			g.mu.Unlock()
			if m.Type == gateway.StreamDone || (m.Type == gateway.StreamStart && m.Meta.Method == "system_binary_streams_out") {
				g.answer(ctx, c, g)
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/gateway"
}

func sendMsg(ctx context.Context, c *websocket.Conn, m *gateway.StreamMessage) {
	b, _ := gateway.EncodeStreamMessage(m)
	_ = c.Write(ctx, websocket.MessageText, b)
}

// serverStream is a gateway that answers the client's start with a
// stream of its own, theirs, started with meta; rest writes what follows
// the start.
func serverStream(theirs gateway.GUID, meta *gateway.StreamMeta, rest func(ctx context.Context, c *websocket.Conn)) *gatewayScript {
	return &gatewayScript{answer: func(ctx context.Context, c *websocket.Conn, g *gatewayScript) {
		if g.done != nil {
			return
		}
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamStart, ID: theirs, Meta: meta})
		rest(ctx, c)
	}}
}

// An upload: the start names the method, the file and its size; chunks of
// --chunk-size with the 24-byte header (the start's GUID in .NET order,
// increasing indices); done with totalChunks and totalBytes; the server's
// done summary is printed.
func TestStreamUpload(t *testing.T) {
	g := &gatewayScript{answer: func(ctx context.Context, c *websocket.Conn, g *gatewayScript) {
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: g.start.ID, Summary: json.RawMessage(`{"received":150000}`)})
	}}
	file := filepath.Join(t.TempDir(), "big.bin")
	payload := make([]byte, 150000)
	_, _ = rand.Read(payload)
	if err := os.WriteFile(file, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcpscope(t, "stream", "--upload", file, "system_binary_streams_in", g.url(t))
	r.mustExit(t, ExitOK)
	if strings.TrimSpace(r.stdout) != `{"received":150000}` {
		t.Errorf("stdout %q", r.stdout)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	m := g.start.Meta
	if m.Method != "system_binary_streams_in" || !m.Binary || m.Name != "big.bin" || m.TotalSize == nil || *m.TotalSize != 150000 || m.CorrelationID != g.start.ID.String() {
		t.Errorf("start meta %+v", m)
	}
	if len(g.chunks) != 3 || len(g.chunks[0]) != DefaultChunkSize || !bytes.Equal(bytes.Join(g.chunks, nil), payload) {
		t.Fatalf("%d chunks", len(g.chunks))
	}
	for i, h := range g.heads {
		want := gateway.AppendGatewayChunk(nil, g.start.ID, int64(i), nil)
		if !bytes.Equal(h, want) {
			t.Errorf("chunk %d header % x, want % x", i, h, want)
		}
	}
	if g.done == nil || string(g.done.Summary) != `{"totalBytes":150000,"totalChunks":3}` {
		t.Errorf("done %+v", g.done)
	}
	if g.conns != 1 {
		t.Errorf("%d connections", g.conns)
	}
}

// --chunk-size N cuts the upload into binary chunks of N bytes, the last
// one shorter, each behind its 24-byte header (the start's GUID in .NET
// order, indexes 0, 1, 2); done counts them. A size under 1 is a usage
// error, before any connection.
func TestStreamChunkSize(t *testing.T) {
	g := &gatewayScript{answer: func(ctx context.Context, c *websocket.Conn, g *gatewayScript) {
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: g.start.ID, Summary: json.RawMessage(`{}`)})
	}}
	file := filepath.Join(t.TempDir(), "ten.bin")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := g.url(t)
	mcpscope(t, "stream", "--chunk-size", "4", "--upload", file, "system_binary_streams_in", url).mustExit(t, ExitOK)
	g.mu.Lock()
	var got []string
	for _, c := range g.chunks {
		got = append(got, string(c))
	}
	if strings.Join(got, "|") != "0123|4567|89" {
		t.Errorf("chunks %q", got)
	}
	for i, h := range g.heads {
		if want := gateway.AppendGatewayChunk(nil, g.start.ID, int64(i), nil); !bytes.Equal(h, want) {
			t.Errorf("chunk %d header % x, want % x", i, h, want)
		}
	}
	if len(g.heads) != 3 || string(g.done.Summary) != `{"totalBytes":10,"totalChunks":3}` || *g.start.Meta.TotalSize != 10 {
		t.Errorf("%d headers, done %s, start %+v", len(g.heads), g.done.Summary, g.start.Meta)
	}
	conns := g.conns
	g.mu.Unlock()
	for _, n := range []string{"0", "-1"} {
		mcpscope(t, "stream", "--chunk-size", n, "--upload", file, "system_binary_streams_in", url).mustExit(t, ExitUsage)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conns != conns {
		t.Errorf("a usage error connected")
	}
}

// --text sends one text chunk per input line: its JSON value (compacted)
// as data, indexes 0, 1, 2, … in order, blank lines skipped; a line that
// is not exactly one JSON value ends the run as a usage error naming it.
func TestStreamTextOneValuePerLine(t *testing.T) {
	g := &gatewayScript{answer: func(ctx context.Context, c *websocket.Conn, g *gatewayScript) {
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: g.start.ID, Summary: json.RawMessage(`{}`)})
	}}
	url := g.url(t)
	lines := filepath.Join(t.TempDir(), "values.jsonl")
	if err := os.WriteFile(lines, []byte("{ \"a\" : [1, 2] }\n  \"two\"  \n\n null\n3.5\n[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mcpscope(t, "stream", "--text", "--upload", lines, "text_stream", url).mustExit(t, ExitOK)
	g.mu.Lock()
	var got []string
	for _, c := range g.chunks {
		got = append(got, string(c))
	}
	if strings.Join(got, " ") != `{"a":[1,2]} "two" null 3.5 []` || fmt.Sprint(g.texts) != "[0 1 2 3 4]" || g.start.Meta.Binary || g.start.Meta.TotalSize != nil {
		t.Errorf("chunks %q, indexes %v, start %+v", got, g.texts, g.start.Meta)
	}
	g.mu.Unlock()
	if err := os.WriteFile(lines, []byte("1\n\n2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcpscope(t, "stream", "--text", "--upload", lines, "text_stream", url)
	r.mustExit(t, ExitUsage)
	if strings.TrimSpace(r.stderr) != "error: --text: input line 3 is not a JSON value: 2 3" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// A download: the server's own stream is saved under --stream-out as
// GUID.bin, its summary printed; the server's name for it is shown, never
// used as a path.
func TestStreamDownload(t *testing.T) {
	theirs := gateway.NewGUID()
	meta := &gateway.StreamMeta{Method: "system_binary_streams_out", Binary: true, Name: "../../etc/out.bin"}
	g := serverStream(theirs, meta, func(ctx context.Context, c *websocket.Conn) {
		for i, part := range []string{"hello ", "gateway"} {
			_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, theirs, int64(i), []byte(part)))
		}
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: theirs, Summary: json.RawMessage(`{"totalChunks":2,"totalBytes":13}`)})
	})
	dir := t.TempDir()
	r := mcpscope(t, "stream", "--stream-out", dir, "system_binary_streams_out", g.url(t))
	r.mustExit(t, ExitOK)
	if strings.TrimSpace(r.stdout) != `{"totalChunks":2,"totalBytes":13}` {
		t.Errorf("stdout %q", r.stdout)
	}
	got, err := os.ReadFile(filepath.Join(dir, theirs.String()+".bin"))
	if err != nil || string(got) != "hello gateway" {
		t.Errorf("saved %q, %v", got, err)
	}
	if !strings.Contains(r.stderr, "(../../etc/out.bin): 13 bytes in 2 chunks saved to") {
		t.Errorf("stderr %s", r.stderr)
	}
}

// Text chunks from standard input, one JSON value a line; a server error
// is printed and exits 1.
func TestStreamTextAndError(t *testing.T) {
	g := &gatewayScript{answer: func(ctx context.Context, c *websocket.Conn, g *gatewayScript) {
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamError, ID: g.start.ID, Error: &jsonrpc.Error{Code: -32000, Message: "Stream timeout"}})
	}}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	code := Execute(ctx, []string{"stream", "--text", "--upload", "-", "text_stream", g.url(t)}, strings.NewReader("1\n\n\"two\"\n{\"three\":3}\n"), &out, &errb)
	if ctx.Err() != nil {
		t.Fatalf("mcpscope stream was still running after %s; stopped, it wrote:\nstdout: %s\nstderr: %s", guard.Run, out.String(), errb.String())
	}
	if code != ExitRPCError || !strings.Contains(out.String(), `"Stream timeout"`) || !strings.Contains(errb.String(), "the stream failed: -32000 Stream timeout") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out.String(), errb.String())
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.start.Meta.Binary || len(g.chunks) != 3 || string(g.chunks[1]) != `"two"` || string(g.done.Summary) != `{"totalBytes":17,"totalChunks":3}` {
		t.Errorf("start %+v chunks %q done %s", g.start.Meta, g.chunks, g.done.Summary)
	}
}

// A server stream that breaks the protocol is saved, warned about, and
// exits 5.
func TestStreamProblemExitsFive(t *testing.T) {
	theirs := gateway.NewGUID()
	g := serverStream(theirs, &gateway.StreamMeta{Method: "m", Binary: true}, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, theirs, 0, []byte("a")))
		_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, theirs, 5, []byte("b")))
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: theirs})
	})
	r := mcpscope(t, "stream", "system_binary_streams_out", g.url(t))
	r.mustExit(t, ExitProtocol)
	if !strings.Contains(r.stderr, "warning: index gap on stream "+theirs.String()+": chunk 5 where 1 was next") {
		t.Errorf("stderr %s", r.stderr)
	}
}

// A gateway that never answers is given up after --timeout.
func TestStreamTimeout(t *testing.T) {
	g := &gatewayScript{answer: func(context.Context, *websocket.Conn, *gatewayScript) {}}
	r := mcpscope(t, "stream", "--timeout", "300ms", "system_binary_streams_in", g.url(t))
	r.mustExit(t, ExitTimeout)
}

// A server that opens more streams than a run follows is warned about,
// and the run still ends with the server's answer (exit 5: the server
// broke what a client can follow).
func TestStreamTooManyServerStreams(t *testing.T) {
	g := &gatewayScript{answer: func(ctx context.Context, c *websocket.Conn, g *gatewayScript) {
		if g.done == nil {
			return
		}
		for range gatewaystream.MaxStreams + 6 {
			sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamStart, ID: gateway.NewGUID(), Meta: &gateway.StreamMeta{Method: "m", Binary: true}})
		}
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: g.start.ID, Summary: json.RawMessage(`{"ok":true}`)})
	}}
	r := mcpscope(t, "stream", "--stream-out", t.TempDir(), "system_binary_streams_in", g.url(t))
	r.mustExit(t, ExitProtocol)
	if strings.Count(r.stderr, "more than 64 streams") != 1 || strings.TrimSpace(r.stdout) != `{"ok":true}` {
		t.Errorf("stdout %s\nstderr %s", r.stdout, r.stderr)
	}
}

// --stream-out is the gateway's download directory: the TUI's link takes
// it, the other WebSocket dialects refuse it.
func TestGatewayTakesStreamOut(t *testing.T) {
	for _, tc := range []struct {
		transport string
		ok        bool
	}{{"gateway", true}, {"ws", false}, {"tools-ws", false}} {
		_, tg, err := splitTarget([]string{"ws://127.0.0.1:1/x"}, -1, tc.transport)
		if err != nil {
			t.Fatal(err)
		}
		_, err = newTransport(tg, dial.Options{StreamOut: t.TempDir()})
		if (err == nil) != tc.ok {
			t.Errorf("%s with --stream-out: %v", tc.transport, err)
		}
	}
}

// A server that floods the run with chunks of streams it never opened gets
// warningLimit warnings and a count of the rest, not a line each.
func TestStreamProblemsAreCapped(t *testing.T) {
	const flood = 200
	theirs := gateway.NewGUID()
	g := serverStream(theirs, &gateway.StreamMeta{Method: "m", Binary: true}, func(ctx context.Context, c *websocket.Conn) {
		for i := range flood {
			_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, gateway.NewGUID(), int64(i), []byte("x")))
		}
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: theirs})
	})
	r := mcpscope(t, "stream", "system_binary_streams_out", g.url(t))
	r.mustExit(t, ExitProtocol)
	warnings := strings.Count(r.stderr, "warning: ")
	held := fmt.Sprintf("warning: %d more problems with gateway stream messages were not shown", flood-warningLimit)
	if warnings != warningLimit+1 || !strings.Contains(r.stderr, held) {
		t.Errorf("%d warnings, want %d and %q:\n%s", warnings, warningLimit+1, held, r.stderr)
	}
}
