package cli

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/internal/testkit/socktest"
)

// socketRelay carries every connection made to a Unix socket on to a TCP
// address, bytes unchanged both ways: a real server that listens on TCP
// only becomes one on a socket. It stops at the end of the test.
type socketRelay struct {
	ln    net.Listener
	to    string
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]bool
}

// relaySocket listens on a socket in a short folder and relays it to the
// TCP address to; it returns the socket's path.
func relaySocket(t *testing.T, to string) string {
	t.Helper()
	path := filepath.Join(socktest.ShortDir(t), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	r := &socketRelay{ln: ln, to: to, conns: map[net.Conn]bool{}}
	r.wg.Add(1)
	go r.accept()
	t.Cleanup(r.stop)
	return path
}

func (r *socketRelay) accept() {
	defer r.wg.Done()
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", r.to)
		if err != nil {
			_ = c.Close()
			continue
		}
		if !r.hold(c, up) {
			return
		}
		r.wg.Add(2)
		go r.pipe(c, up)
		go r.pipe(up, c)
	}
}

// hold records the pair of connections, or closes them when the relay has
// stopped.
func (r *socketRelay) hold(a, b net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conns == nil {
		_, _ = a.Close(), b.Close()
		return false
	}
	r.conns[a], r.conns[b] = true, true
	return true
}

// pipe copies src to dst until either ends, then closes both.
func (r *socketRelay) pipe(dst, src net.Conn) {
	defer r.wg.Done()
	_, _ = io.Copy(dst, src)
	_, _ = dst.Close(), src.Close()
}

// stop closes the listener and every connection, and waits for the
// copies.
func (r *socketRelay) stop() {
	_ = r.ln.Close()
	r.mu.Lock()
	for c := range r.conns {
		_ = c.Close()
	}
	r.conns = nil
	r.mu.Unlock()
	r.wg.Wait()
}

// unixURL is the unix:// URL of the socket at path with the request path
// req after '#'.
func unixURL(path, req string) string { return "unix://" + path + "#" + req }

// Real servers reached over a Unix socket: tools, call and tool go
// through unix:///….sock#/mcp to the TypeScript reference and to the Go
// SDK's everything server (each on 127.0.0.1, behind a relay from the
// socket), as over TCP.
func TestUnixSocketRealServers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		start func(testing.TB) *peertest.HTTPPeer
		tool  string   // a tool of the server, listed
		call  string   // tools/call's params
		tool2 []string // the same call by mcpscope tool
		want  string
	}{
		{"TypeScript", peertest.StartTSStreamableHTTP, "get-sum", `{"name":"echo","arguments":{"message":"über unix"}}`,
			[]string{"echo", "message=über unix"}, "Echo: über unix"},
		{"GoSDK", peertest.StartGoSDKEverythingHTTP, "greet", `{"name":"greet","arguments":{"name":"Ada"}}`,
			[]string{"greet", "name=Ada"}, "Hi Ada"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			peer := c.start(t)
			target := unixURL(relaySocket(t, peer.Addr.String()), "/mcp")
			r := mcpscope(t, "tools", target)
			r.mustExit(t, ExitOK)
			if !strings.Contains(r.stdout, `"`+c.tool+`"`) {
				t.Errorf("tools over the socket lack %s: %s", c.tool, r.stdout)
			}
			r = mcpscope(t, "call", "tools/call", c.call, target)
			r.mustExit(t, ExitOK)
			if !strings.Contains(r.stdout, c.want) {
				t.Errorf("call: %s", r.stdout)
			}
			r = mcpscope(t, append(append([]string{"tool"}, c.tool2...), target)...)
			r.mustExit(t, ExitOK)
			if !strings.Contains(r.stdout, c.want) {
				t.Errorf("tool %s: %s", c.tool2[0], r.stdout)
			}
		})
	}
}

// unixFailure runs tools against target and wants exit 3 with every one of
// wants on stderr.
func unixFailure(t *testing.T, target string, wants ...string) {
	t.Helper()
	r := mcpscope(t, "tools", target)
	r.mustExit(t, ExitConnection)
	for _, w := range wants {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("tools %s: stderr lacks %q:\n%s", target, w, r.stderr)
		}
	}
}

// A socket that is not there, a path that is a regular file or a
// directory, and a server that closes each connection at once each end
// the run with exit 3 and say which it was.
func TestUnixSocketConnectFailures(t *testing.T) {
	t.Parallel()
	dir := socktest.ShortDir(t)
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("not a socket"), 0o600); err != nil {
		t.Fatal(err)
	}
	unixFailure(t, unixURL(filepath.Join(dir, "none.sock"), "/mcp"), "none.sock", "no such file")
	unixFailure(t, unixURL(file, "/mcp"), "the file is not a socket: it is a regular file")
	unixFailure(t, unixURL(dir, "/mcp"), "the file is not a socket: it is a directory")

	closing := filepath.Join(dir, "closes.sock")
	ln, err := net.Listen("unix", closing)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	defer func() { _ = ln.Close(); <-done }()
	unixFailure(t, unixURL(closing, "/mcp"), "could not connect to unix://"+closing)

	// The doctor names the first layer that fails: the socket file, or
	// the HTTP exchange of a server that hangs up.
	for _, c := range []struct{ path, failed, want string }{
		{filepath.Join(dir, "none.sock"), "socket", "start the server, or check the socket's path"},
		{file, "socket", "it is a regular file"},
		{closing, "http", "POST unix://" + closing},
	} {
		r := mcpscope(t, "doctor", unixURL(c.path, "/mcp"))
		r.mustExit(t, ExitConnection)
		if !strings.Contains(r.stdout, c.failed+" failed") || !strings.Contains(r.stdout, c.want) {
			t.Errorf("doctor %s: want %s failed saying %q:\n%s", c.path, c.failed, c.want, r.stdout)
		}
	}
}

// A unix:// URL that is malformed, or a transport that does not run on a
// socket, is a usage error (exit 2) before anything is dialled.
func TestUnixSocketUsageErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tools", "unix://run/x.sock#/mcp"}, "must be absolute"},
		{[]string{"tools", "unix:///run/x.sock?a=1"}, "query outside its fragment"},
		{[]string{"tools", "unix:///run/x.sock#mcp"}, "must begin with '/'"},
		{[]string{"tools", "unix:///" + strings.Repeat("d", 120) + ".sock"}, "holds at most 107"},
		{[]string{"tools", "--transport", "ws", "unix:///run/x.sock"}, "does not run on a Unix socket"},
		{[]string{"tools", "--insecure", "unix:///run/x.sock#/mcp"}, "--cert-hash, --insecure and --keylog do not apply"},
		{[]string{"tools", "--client-id", "abc", "unix:///run/x.sock#/mcp"}, "OAuth does not run over a Unix socket"},
		{[]string{"auth", "status", "unix:///run/x.sock#/mcp"}, "OAuth does not run over a Unix socket"},
		{[]string{"proxy", "--insecure", "--listen", "127.0.0.1:0", "unix:///run/x.sock#/mcp"}, "--cert-hash and --insecure do not apply"},
		{[]string{"proxy", "--transport", "ws", "--listen", "127.0.0.1:0", "unix:///run/x.sock#/mcp"}, "does not go with a unix:// URL"},
	} {
		r := mcpscope(t, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d saying %q", c.args, r.code, r.stderr, ExitUsage, c.want)
		}
	}
}

// unixConnectLine is the command `mcpscope serve --unix` prints.
var unixConnectLine = regexp.MustCompile(`connect with:\n  mcpscope tools (unix://\S+#/mcp)\n`)

// `mcpscope serve --unix PATH` serves the demo on a socket of mode 0600
// in place of a stale one; tools, call and doctor reach it through the
// URL it prints; it removes the socket when it stops. A socket of mode
// 000 refuses every user but root (whom the kernel lets through).
func TestServeUnixEndToEnd(t *testing.T) {
	t.Parallel()
	dir := socktest.ShortDir(t)
	path := filepath.Join(dir, "demo.sock")
	stale, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	_ = stale.Close() // a socket file nothing listens on
	ctx, cancel := serveContext()
	defer cancel()
	m, errw, exit := startServe(t, ctx, unixConnectLine, "serve", "--unix", path, "--root", t.TempDir())
	if want := unixURL(path, "/mcp"); m[1] != want {
		t.Errorf("serve printed %s, want %s", m[1], want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the socket: %v, %v; want a socket of mode 0600", fi, err)
	}
	r := mcpscope(t, "tools", m[1])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"echo"`) {
		t.Errorf("tools: %s", r.stdout)
	}
	r = mcpscope(t, "call", "tools/call", `{"name":"echo","arguments":{"message":"on a socket"}}`, m[1])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "on a socket") {
		t.Errorf("call: %s", r.stdout)
	}
	r = mcpscope(t, "doctor", m[1])
	r.mustExit(t, ExitOK)
	for _, want := range []string{"socket", "a socket, mode 0600", "connected to " + path, "tools/list", "every step passed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, layer := range []string{"dns", "tcp", "tls"} {
		if strings.Contains(r.stdout, "  "+layer+" ") {
			t.Errorf("doctor walks %s on a socket:\n%s", layer, r.stdout)
		}
	}
	// A second server on the same path is refused: the socket is alive.
	r = mcpscope(t, "serve", "--unix", path)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "listens on the Unix socket "+path+" already") {
		t.Errorf("a second serve: %s", r.stderr)
	}
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	r = mcpscope(t, "tools", m[1])
	if os.Geteuid() == 0 {
		r.mustExit(t, ExitOK) // root is not held back by the socket's mode
	} else {
		r.mustExit(t, ExitConnection)
		if !strings.Contains(r.stderr, "permission denied") {
			t.Errorf("mode 000: %s", r.stderr)
		}
	}
	stopServe(t, cancel, errw, exit)
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there after serve stopped: %v", err)
	}
}

// serve --unix never removes a file that is not a socket, and wants a
// path.
func TestServeUnixRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	path := filepath.Join(socktest.ShortDir(t), "notes.txt")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := mcpscope(t, "serve", "--unix", path)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "exists and is not a socket") {
		t.Errorf("stderr: %s", r.stderr)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "keep me" {
		t.Errorf("the file became %q (%v)", b, err)
	}
	r = mcpscope(t, "serve", "--unix", "")
	r.mustExit(t, ExitUsage)
	r = mcpscope(t, "serve", "--stdio", "--unix", path)
	r.mustExit(t, ExitUsage)
	// An abstract name that no unix://@NAME URL could name is refused
	// before anything listens.
	for _, name := range []string{"@", "@rev/x", "@rev x", "@a%b"} {
		r = mcpscope(t, "serve", "--unix", name)
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, "abstract socket name") {
			t.Errorf("--unix %q: %s", name, r.stderr)
		}
	}
}

// proxyListening is what `mcpscope proxy --listen` prints, with the
// upstream it names.
var proxyListening = regexp.MustCompile(`mcpscope proxy: listening on (http://127\.0\.0\.1:\d+/mcp) → (unix://\S+)\n`)

// `mcpscope proxy --listen ADDR unix:///….sock#/mcp` relays a local TCP
// endpoint to a server on a Unix socket: tools through the proxy lists
// the demo's; the proxy names the socket, not localhost.
func TestProxyUnixUpstream(t *testing.T) {
	t.Parallel()
	path := filepath.Join(socktest.ShortDir(t), "up.sock")
	ctx, cancel := serveContext()
	defer cancel()
	_, serveErr, serveExit := startServe(t, ctx, unixConnectLine, "serve", "--unix", path, "--root", t.TempDir())
	pctx, pcancel := serveContext()
	defer pcancel()
	m, proxyErr, proxyExit := startServe(t, pctx, proxyListening, "proxy", "--no-record", "--listen", "127.0.0.1:0", unixURL(path, "/mcp"))
	if m[2] != unixURL(path, "/mcp") {
		t.Errorf("the proxy names its upstream %s", m[2])
	}
	r := mcpscope(t, "call", "tools/call", `{"name":"echo","arguments":{"message":"relayed"}}`, m[1])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "relayed") {
		t.Errorf("through the proxy: %s", r.stdout)
	}
	pcancel() // a proxy stopped so says it was interrupted
	if code := <-proxyExit; code != ExitInterrupted {
		t.Errorf("the proxy exited %d: %s", code, proxyErr.String())
	}
	stopServe(t, cancel, serveErr, serveExit)
}

// A VS Code project file that names a server by unix:///….sock#/mcp (with
// or without "type": "http") reaches it; the recording's header names
// the socket.
func TestServerByNameUnixSocket(t *testing.T) {
	home := configHome(t)
	path := filepath.Join(socktest.ShortDir(t), "cfg.sock")
	ctx, cancel := serveContext()
	defer cancel()
	_, errw, exit := startServe(t, ctx, unixConnectLine, "serve", "--unix", path, "--root", t.TempDir())
	target := unixURL(path, "/mcp")
	writeConfig(t, filepath.Join(home, "project", ".vscode", "mcp.json"), map[string]any{
		"servers": map[string]any{
			"typed":   map[string]any{"type": "http", "url": target},
			"untyped": map[string]any{"url": target},
		},
	})
	for _, name := range []string{"typed", "untyped"} {
		rec := filepath.Join(t.TempDir(), name+".mcpscope")
		r := mcpscope(t, "tools", "--record", rec, name)
		r.mustExit(t, ExitOK)
		if names := toolNames(t, r.stdout); !names["echo"] {
			t.Errorf("%s: echo missing from %v", name, names)
		}
		_, rd := rectest.Replay(t, rec)
		if h := rd.Header(); h.Target != target || h.Transport != "http" {
			t.Errorf("%s: the recording names %q over %q; want %q over http", name, h.Target, h.Transport, target)
		}
	}
	stopServe(t, cancel, errw, exit)
}
