package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// wsListening is what the WebSocket proxy prints once it listens.
var wsListening = regexp.MustCompile(`listening on (ws://\S+) for `)

// startWSProxy runs the WebSocket proxy for upstream with args and
// returns it and the URL a host uses.
func startWSProxy(t *testing.T, upstream string, args ...string) (*netProxy, string) {
	t.Helper()
	p, m := startNetProxy(t, wsListening, append(append([]string{"--name", "ws-test", "--listen", "127.0.0.1:0"}, args...), upstream)...)
	return p, m[0]
}

// tsWSHostRun runs the TypeScript SDK's WebSocketClientTransport as a host
// against url: tools/list, then tools/call echo; it returns what it
// printed.
func tsWSHostRun(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	sdk := filepath.Join(peertest.Dir(), "node_modules", "@modelcontextprotocol", "sdk")
	cmd := exec.CommandContext(ctx, peertest.Node(t), "--experimental-websocket", "--no-warnings", filepath.Join("testdata", "ws_host.mjs"), sdk, url)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript host against %s: %v\n%s", url, err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// A real host (the TypeScript SDK's WebSocket client) gets the same
// answers through the proxy as without it, from the demo's WebSocket
// server and from supergateway in front of the TypeScript reference
// server; the recording holds the host's requests and the server's
// answers, and the subprotocol "mcp" the host offered is the one the
// server chose.
func TestProxyWSSameAnswers(t *testing.T) {
	for name, upstream := range map[string]func(*testing.T) string{
		"demo":         func(t *testing.T) string { return startTestDemo(t, startWSDemo, "ws") },
		"supergateway": func(t *testing.T) string { return peertest.StartSupergatewayWS(t).URL },
	} {
		t.Run(name, func(t *testing.T) {
			url := upstream(t)
			direct := tsWSHostRun(t, url)
			if !strings.Contains(direct, "hi through the proxy") {
				t.Fatalf("the host without the proxy: %s", direct)
			}
			p, local := startWSProxy(t, url)
			if through := tsWSHostRun(t, local); through != direct {
				t.Errorf("through the proxy:\n%s\nwithout:\n%s", through, direct)
			}
			p.finish(t).mustExit(t, ExitOK)
			var methods []string
			echoed, subprotocol := false, false
			for _, f := range p.frames(t) {
				switch {
				case f.Chan.Kind == capture.Control && f.Dir == capture.Out && f.Msg != nil && f.Msg.Method != "":
					methods = append(methods, f.Msg.Method)
				case f.Chan.Kind == capture.Control && f.Dir == capture.In && bytes.Contains(f.Raw, []byte("hi through the proxy")):
					echoed = true
				case f.Chan.Kind == capture.HTTP && f.Dir == capture.In && bytes.Contains(f.Raw, []byte("101 Switching Protocols")):
					subprotocol = regexp.MustCompile(`(?i)sec-websocket-protocol: mcp\r\n`).Match(f.Raw)
				}
			}
			if got := strings.Join(methods, " "); !strings.Contains(got, "initialize notifications/initialized tools/list tools/call") {
				t.Errorf("the host's messages recorded: %s", got)
			}
			if !echoed || !subprotocol {
				t.Errorf("recorded: the echo answer %t, the server's choice of \"mcp\" %t", echoed, subprotocol)
			}
		})
	}
}

// The recording holds both directions byte for byte, and garbage from the
// host is carried on as it came and recorded with an error; the host's
// close code and reason reach the server.
func TestProxyWSBytesAndGarbage(t *testing.T) {
	url := startTestDemo(t, startWSDemo, "ws")
	p, local := startWSProxy(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, local, &websocket.DialOptions{Subprotocols: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Subprotocol() != "mcp" {
		t.Errorf("subprotocol %q through the proxy, want mcp", c.Subprotocol())
	}
	sent := [][]byte{
		[]byte(`{ "jsonrpc" : "2.0", "id": 7,   "method":"ping" }`),
		[]byte(`{not json at all`),
	}
	var got [][]byte
	for _, msg := range sent {
		if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if err := c.Close(websocket.StatusNormalClosure, "host done"); err != nil {
		t.Errorf("closing: %v", err)
	}
	p.finish(t).mustExit(t, ExitOK)
	var out, in [][]byte
	garbageErr := false
	for _, f := range p.frames(t) {
		if f.Chan.Kind != capture.Control {
			continue
		}
		if f.Dir == capture.Out {
			out = append(out, f.Raw)
			garbageErr = garbageErr || bytes.Equal(f.Raw, sent[1]) && f.Err != nil
		} else {
			in = append(in, f.Raw)
		}
	}
	if !wsSameMessages(out, sent) || !wsSameMessages(in, got) {
		t.Errorf("recorded out %q in %q; sent %q got %q", out, in, sent, got)
	}
	if !garbageErr {
		t.Error("the host's garbage is not recorded with an error")
	}
}

func wsSameMessages(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// A server that closes mid-session: the host sees its close code and
// reason; the recording keeps what came before. A server that drops the
// connection without a close frame: the host is closed with 1001 saying
// so.
func TestProxyWSUpstreamCloses(t *testing.T) {
	for _, drop := range []bool{false, true} {
		upstream := wsClosingServer(t, drop)
		p, local := startWSProxy(t, upstream)
		ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
		c, _, err := websocket.Dial(ctx, local, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); err != nil {
			t.Fatal(err)
		}
		if _, b, err := c.Read(ctx); err != nil || string(b) != "partial answer" {
			t.Fatalf("first read: %q %v", b, err)
		}
		_, _, err = c.Read(ctx)
		var ce websocket.CloseError
		switch {
		case !drop && (!errors.As(err, &ce) || ce.Code != 4002 || ce.Reason != "going now"):
			t.Errorf("the server's close reached the host as %v", err)
		case drop && (!errors.As(err, &ce) || ce.Code != websocket.StatusGoingAway || !strings.Contains(ce.Reason, "dropped")):
			t.Errorf("the server's drop reached the host as %v", err)
		}
		cancel()
		_ = c.CloseNow()
		p.finish(t).mustExit(t, ExitOK)
		kept := false
		for _, f := range p.frames(t) {
			kept = kept || f.Dir == capture.In && string(f.Raw) == "partial answer"
		}
		if !kept {
			t.Errorf("drop %t: the recording lost the server's last message", drop)
		}
	}
}

// wsClosingServer serves a WebSocket on a loopback port of its own: it
// answers the first message with "partial answer", then closes with 4002
// "going now", or drops the TCP connection without a close frame.
func wsClosingServer(t *testing.T, drop bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx := r.Context()
		if _, _, err := c.Read(ctx); err != nil {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, []byte("partial answer"))
		if drop {
			_ = c.CloseNow()
			return
		}
		_ = c.Close(4002, "going now")
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "ws://" + ln.Addr().String() + "/mcp"
}

// A server that is down: the host's upgrade is refused with 502 and a
// sentence saying why.
func TestProxyWSUpstreamDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	_, local := startWSProxy(t, "ws://"+addr+"/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	_, rsp, err := websocket.Dial(ctx, local, nil)
	if err == nil || rsp == nil || rsp.StatusCode != http.StatusBadGateway {
		t.Fatalf("upgrade through the proxy to a server that is down: %v %v", rsp, err)
	}
	body, _ := io.ReadAll(rsp.Body)
	if !strings.Contains(string(body), "could not open the WebSocket to ws://"+addr) {
		t.Errorf("the refusal says %q", body)
	}
}

// mcpscope stream (seed 003's gateway client) through the proxy: an upload
// and a download each on its own connection arrive whole, the same bytes;
// the streams' chunks are recorded as stream frames.
func TestProxyWSGateway(t *testing.T) {
	url := startGatewayDemo(t)
	p, local := startWSProxy(t, url, "--transport", "gateway")
	payload := make([]byte, 300000)
	_, _ = rand.Read(payload)
	file := filepath.Join(t.TempDir(), "up.bin")
	if err := os.WriteFile(file, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(payload)
	got := streamSummary(t, mcpscope(t, "stream", "--upload", file, "system_binary_streams_in", local))
	if got["sha256"] != hex.EncodeToString(want[:]) || got["totalBytes"] != 300000.0 {
		t.Errorf("upload through the proxy: %v", got)
	}
	dir := t.TempDir()
	got = streamSummary(t, mcpscope(t, "stream", "--stream-out", dir, "--meta", `{"totalSize":200000}`, "system_binary_streams_out", local))
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("saved %v", files)
	}
	saved, _ := os.ReadFile(files[0])
	sum := sha256.Sum256(saved)
	if len(saved) != 200000 || got["sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("download through the proxy: %d bytes, summary %v", len(saved), got)
	}
	p.finish(t).mustExit(t, ExitOK)
	conns, chunks := map[string]bool{}, 0
	for _, f := range p.frames(t) {
		if f.Chan.Kind == capture.Stream {
			chunks++
			conns[f.Conn] = true
		}
		if f.Chan.Kind == capture.Control && f.Msg == nil && f.Err != nil && f.Enc == 0 {
			var v map[string]any
			if json.Unmarshal(f.Raw, &v) == nil && v["type"] != nil {
				t.Errorf("a StreamMessage recorded as an error: %s: %v", f.Raw, f.Err)
			}
		}
	}
	if chunks < 5 || len(conns) != 2 {
		t.Errorf("recorded %d stream chunks on connections %v", chunks, conns)
	}
}
