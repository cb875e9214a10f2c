package doctor

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/proto/gateway"
)

// upgrader answers every upgrade 101 choosing the subprotocol chosen ("":
// none), and sends what each request offered on offered.
func upgrader(t *testing.T, chosen string, offered chan<- []string) *url.URL {
	t.Helper()
	return upgraderAccepting(t, chosen, offered, "")
}

// upgraderAccepting is upgrader answering with accept as the
// Sec-WebSocket-Accept ("": the one the key asks for).
func upgraderAccepting(t *testing.T, chosen string, offered chan<- []string, accept string) *url.URL {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		offered <- r.Header.Values("Sec-WebSocket-Protocol")
		conn, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		if accept == "" {
			accept = gateway.WebSocketAccept(r.Header.Get("Sec-WebSocket-Key"))
		}
		fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n", accept)
		if chosen != "" {
			fmt.Fprintf(rw, "Sec-WebSocket-Protocol: %s\r\n", chosen)
		}
		fmt.Fprint(rw, "\r\n")
		_ = rw.Flush()
		_, _ = bufio.NewReader(conn).ReadByte() // until the probe lets go
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse("ws://" + strings.TrimPrefix(srv.URL, "http://") + "/tools")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// The upgrade offers Config.Subprotocols and nothing else, and the answer
// is judged against them: one of them or none passes, any other fails at
// the websocket step as a protocol error, and so does any subprotocol at
// all when none was offered.
func TestUpgradeOffersConfiguredSubprotocols(t *testing.T) {
	for _, c := range []struct {
		offer  []string
		chosen string
		pass   string // the step's detail, or "" when it fails
		fails  string // the failure's detail
	}{
		{[]string{"mcp"}, "mcp", `101 Switching Protocols, subprotocol "mcp"`, ""},
		{[]string{"mcp"}, "", `101 Switching Protocols, no subprotocol chosen (offered "mcp")`, ""},
		{[]string{"mcp"}, "wamp", "", `the server chose the subprotocol "wamp", not "mcp"`},
		{nil, "", "101 Switching Protocols, no subprotocol (none offered)", ""},
		{nil, "mcp", "", `the server chose the subprotocol "mcp", though none was offered`},
	} {
		offered := make(chan []string, 1)
		u := upgrader(t, c.chosen, offered)
		r := Run(context.Background(), Config{URL: u, Transport: "tools-ws", Subprotocols: c.offer})
		if got := <-offered; strings.Join(got, ",") != strings.Join(c.offer, ",") {
			t.Errorf("offering %q: the upgrade offered %q", c.offer, got)
		}
		f, out := r.Failure(), render(t, r)
		if c.pass != "" && (f != nil || !strings.Contains(out, "✓ websocket") || !strings.Contains(out, c.pass)) {
			t.Errorf("offering %q, %q chosen: want the step to pass saying %q:\n%s", c.offer, c.chosen, c.pass, out)
		}
		if c.fails != "" && (f == nil || f.Step != "websocket" || f.Class != checklist.Protocol || !strings.Contains(f.Detail, c.fails)) {
			t.Errorf("offering %q, %q chosen: failure %+v, want %q at websocket:\n%s", c.offer, c.chosen, f, c.fails, out)
		}
	}
}

// A 101 whose Sec-WebSocket-Accept does not answer the key fails the
// websocket step, naming the value expected and the one received.
func TestUpgradeChecksTheAccept(t *testing.T) {
	offered := make(chan []string, 1)
	u := upgraderAccepting(t, "mcp", offered, "dGhlIHNhbXBsZSBub25jZQ==")
	r := Run(context.Background(), Config{URL: u, Transport: "ws", Subprotocols: []string{"mcp"}})
	<-offered
	f, out := r.Failure(), render(t, r)
	if f == nil || f.Step != "websocket" || f.Class != checklist.Protocol ||
		!strings.Contains(f.Detail, `the 101 answer's Sec-WebSocket-Accept is "dGhlIHNhbXBsZSBub25jZQ==", expected "`) {
		t.Errorf("failure %+v, want the websocket step to name the accept expected and received:\n%s", f, out)
	}
}

// The doctor judges the accept as the real transport does: by its first
// value alone.
func TestJudgeAcceptReadsTheFirstValue(t *testing.T) {
	key := "dGhlIHNhbXBsZSBub25jZQ=="
	want := gateway.WebSocketAccept(key)
	if err := judgeAccept(key, []string{want, "other"}); err != nil {
		t.Errorf("the right accept followed by another failed: %v", err)
	}
	if err := judgeAccept(key, []string{"other", want}); err == nil {
		t.Error("a wrong first accept followed by the right one passed")
	}
}
