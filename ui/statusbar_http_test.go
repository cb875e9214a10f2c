package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// httpPeer is a fake peer whose link says it speaks Streamable HTTP in a
// session whose id carries an escape sequence.
type httpPeer struct{ *screentest.FakePeer }

// LinkState reports Streamable HTTP and a session id.
func (httpPeer) LinkState() client.LinkState {
	return client.LinkState{Dialect: mcp.DialectMCP, Encoding: "json", Transport: "Streamable HTTP", SessionID: "\x1b[31m4f2c-9d1e-77aa-0b3c"}
}

// Describe declares the Streamable HTTP link.
func (p httpPeer) Describe() client.Traits { return client.Traits{Link: p.LinkState} }

// Over HTTP the status bar names the transport and the session id,
// shortened and never with the server's escape sequences.
func TestStatusBarShowsHTTPTransportAndSession(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 200, 20)
	f, s := screentest.ConnectWith(t, m.cfg.Store, client.Options{ProtocolVersion: mcp.LatestLegacy})
	m.conn = connection{link: Link{Transport: httpPeer{f}, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	bar := strings.Join(m.statusParts(), " · ")
	for _, want := range []string{"Streamable HTTP", "session "} {
		if !strings.Contains(bar, want) {
			t.Errorf("status bar %q lacks %q", bar, want)
		}
	}
	if strings.Contains(bar, "\x1b") || strings.Contains(bar, "0b3c") {
		t.Errorf("status bar %q shows the session id raw or whole", bar)
	}
}
