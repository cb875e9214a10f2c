package peertest

import (
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
)

// StartSupergatewayWS starts supergateway 4.0.0 with --outputTransport ws
// in front of the TypeScript reference server on stdio, kept on loopback by
// testdata/peers/loopback.cjs on a port of its own choosing; URL is
// ws://127.0.0.1:PORT/message. PEERS.md notes what it gets wrong (string
// ids become null; answers to server→client requests are not routed).
func StartSupergatewayWS(t testing.TB) *HTTPPeer {
	t.Helper()
	js := need(t, filepath.Join(Dir(), "node_modules", "supergateway", "dist", "index.js"), "supergateway")
	preload := need(t, filepath.Join(Dir(), "loopback.cjs"), "the loopback preload")
	server := TSEverything(t, "stdio")
	return startHTTP(t, httpPeer{
		what: "supergateway (stdio → WebSocket)",
		command: func(port string) ([]string, []string) {
			return []string{Node(t), "-r", preload, js, "--stdio", strings.Join(server, " "),
				"--outputTransport", "ws", "--port", port, "--messagePath", "/message", "--logLevel", "none"}, nil
		},
		url: func(port uint16) string {
			return "ws://" + netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port).String() + "/message"
		},
	})
}
