package peertest

import (
	"net/netip"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// HTTPPeer is a third-party MCP server serving HTTP for the length of one
// test. It listens on a port of its own choosing (port 0) where the server
// allows it, else on a port the test picked; the test's cleanup stops its
// whole process group and reaps it, whether the test passed or failed.
type HTTPPeer struct {
	// URL is where a client connects: the Streamable HTTP endpoint, the
	// legacy HTTP+SSE stream a client GETs, or a WebSocket endpoint.
	URL string
	// Addr is the address the server listens on, as the kernel reports it.
	Addr netip.AddrPort
	out  *outputTail
	pid  int // the server's process, leader of its process group
}

// Output returns the tail of what the server wrote to stdout and stderr.
func (p *HTTPPeer) Output() string { return p.out.String() }

// PID returns the server's process id, the leader of its process group.
func (p *HTTPPeer) PID() int { return p.pid }

// httpPeer says how to start one server and where it serves.
type httpPeer struct {
	what string
	// command returns the argv and the extra environment that start the
	// server on port ("0" unless portUpFront).
	command func(port string) (argv, env []string)
	// url returns the URL a client connects to, given the listening port.
	url func(port uint16) string
	// portUpFront: the server must be told its port (it names itself in
	// absolute URLs), so the test picks a free one and passes it.
	portUpFront bool
	// anyInterface: the server cannot be kept on loopback.
	anyInterface bool
}

func onPath(path string) func(uint16) string {
	return func(port uint16) string {
		return "http://" + netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port).String() + path
	}
}

// tsHTTP starts the TypeScript reference server in mode, with the preload
// testdata/peers/loopback.cjs keeping it on 127.0.0.1 (it listens on every
// interface otherwise) and PORT=0 letting it take any free port.
func tsHTTP(t testing.TB, mode, path string) *HTTPPeer {
	t.Helper()
	argv := TSEverything(t, mode)
	preload := need(t, filepath.Join(Dir(), "loopback.cjs"), "the loopback preload")
	return startHTTP(t, httpPeer{
		what: "the TypeScript reference server (" + mode + ")",
		command: func(port string) ([]string, []string) {
			return append([]string{argv[0], "-r", preload}, argv[1:]...), []string{"PORT=" + port}
		},
		url: onPath(path),
	})
}

// StartTSStreamableHTTP starts @modelcontextprotocol/server-everything in
// streamableHttp mode; URL is http://127.0.0.1:PORT/mcp (stateful sessions,
// 2024-11-05 … 2025-11-25).
func StartTSStreamableHTTP(t testing.TB) *HTTPPeer {
	t.Helper()
	return tsHTTP(t, "streamableHttp", "/mcp")
}

// StartTSSSE starts @modelcontextprotocol/server-everything in legacy
// HTTP+SSE mode; URL is the stream, http://127.0.0.1:PORT/sse, whose
// endpoint event names a relative /message?sessionId=… .
func StartTSSSE(t testing.TB) *HTTPPeer {
	t.Helper()
	return tsHTTP(t, "sse", "/sse")
}

// goHTTPFlag starts a Go SDK server that takes its address as -http.
func goHTTPFlag(t testing.TB, what, bin string, flags ...string) *HTTPPeer {
	t.Helper()
	return startHTTP(t, httpPeer{
		what: what,
		command: func(port string) ([]string, []string) {
			return append(append([]string{bin}, flags...), "-http", "127.0.0.1:"+port), nil
		},
		url: onPath("/mcp"),
	})
}

// StartGoSDKEverythingHTTP starts the Go SDK everything example with
// -http (stateful Streamable HTTP). It serves every path; URL is
// http://127.0.0.1:PORT/mcp.
func StartGoSDKEverythingHTTP(t testing.TB) *HTTPPeer {
	t.Helper()
	return goHTTPFlag(t, "the Go SDK everything server (-http)", GoSDKEverything(t)[0])
}

// StartGoSDKConformanceHTTP starts the Go SDK conformance everything-server
// with -http: stateless 2026-07-28 (server/discover, no sessions, GET and
// DELETE answered 405) when stateless, else with -stateless=false for
// 2025-11-25 sessions. It serves every path; URL is http://127.0.0.1:PORT/mcp.
func StartGoSDKConformanceHTTP(t testing.TB, stateless bool) *HTTPPeer {
	t.Helper()
	flag := "-stateless=" + strconv.FormatBool(stateless)
	return goHTTPFlag(t, "the Go SDK conformance server ("+flag+")", GoSDKConformance(t), flag)
}

// StartMcpscopeWS starts bin, an mcpscope binary, as `serve --ws`: the
// demo's WebSocket endpoints in a process of their own. URL is its seed
// 003 gateway, ws://127.0.0.1:PORT/gateway.
func StartMcpscopeWS(t testing.TB, bin string) *HTTPPeer {
	t.Helper()
	return startHTTP(t, httpPeer{
		what: "mcpscope serve --ws",
		command: func(port string) ([]string, []string) {
			return []string{bin, "serve", "--ws", "127.0.0.1:" + port}, nil
		},
		url: func(port uint16) string {
			return "ws://" + netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port).String() + "/gateway"
		},
	})
}

// StartGoSDKSSE starts the Go SDK's legacy HTTP+SSE example; URL is the
// stream http://127.0.0.1:PORT/greeter1, whose endpoint event names the same
// path with a lowercase sessionid query parameter (relative).
func StartGoSDKSSE(t testing.TB) *HTTPPeer {
	t.Helper()
	bin := need(t, filepath.Join(Dir(), "bin", "go-sdk", "sse"), "the Go SDK sse example")
	return startHTTP(t, httpPeer{
		what: "the Go SDK sse example",
		command: func(port string) ([]string, []string) {
			return []string{bin, "-host", "127.0.0.1", "-port", port}, nil
		},
		url: onPath("/greeter1"),
	})
}

// StartMark3labsConformance starts mark3labs/mcp-go's conformance server
// (CONFORMANCE_ADDR); URL is http://127.0.0.1:PORT/mcp. It answers with plain
// application/json unless it must send requests first.
func StartMark3labsConformance(t testing.TB) *HTTPPeer {
	t.Helper()
	bin := need(t, filepath.Join(Dir(), "bin", "mark3labs", "conformance"), "the mark3labs conformance server")
	return startHTTP(t, httpPeer{
		what: "the mark3labs conformance server",
		command: func(port string) ([]string, []string) {
			return []string{bin}, []string{"CONFORMANCE_ADDR=127.0.0.1:" + port}
		},
		url: onPath("/mcp"),
	})
}

// DynamicPathTenant is the tenant segment of StartMark3labsDynamicPath's URL.
const DynamicPathTenant = "mcpscope"

// StartMark3labsDynamicPath starts mark3labs/mcp-go's dynamic_path example
// (legacy HTTP+SSE with an absolute endpoint URL). URL is
// http://localhost:PORT/api/mcpscope/sse; its endpoint event names
// http://localhost:PORT/api/mcpscope/message?sessionId=… .
//
// It is the one peer not kept on loopback: it builds its endpoint URL as
// "http://localhost" + the -addr flag, so -addr 127.0.0.1:PORT yields the
// unusable host "localhost127.0.0.1"; it runs with -addr :PORT and listens on
// every interface, on a port the test picked. URL names localhost, like the
// endpoint, so that the stream and the endpoint share one origin.
func StartMark3labsDynamicPath(t testing.TB) *HTTPPeer {
	t.Helper()
	bin := need(t, filepath.Join(Dir(), "bin", "mark3labs", "dynamic_path"), "the mark3labs dynamic_path example")
	return startHTTP(t, httpPeer{
		what: "the mark3labs dynamic_path example",
		command: func(port string) ([]string, []string) {
			return []string{bin, "-addr", ":" + port}, nil
		},
		url: func(port uint16) string {
			return "http://localhost:" + strconv.Itoa(int(port)) + "/api/" + DynamicPathTenant + "/sse"
		},
		portUpFront:  true,
		anyInterface: true,
	})
}

// outputTail keeps the last outputTailMax bytes a server wrote.
type outputTail struct {
	mu  sync.Mutex
	buf []byte
}

const outputTailMax = 64 << 10

// Write implements io.Writer.
func (o *outputTail) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, p...)
	if over := len(o.buf) - outputTailMax; over > 0 {
		o.buf = append(o.buf[:0], o.buf[over:]...)
	}
	return len(p), nil
}

// String returns what was kept.
func (o *outputTail) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return string(o.buf)
}
