package ws

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// An MCP session: the subprotocol "mcp" offered and the choice captured,
// one JSON-RPC message per text frame both ways, the upgrade captured with
// credentials redacted and the Origin sent.
func TestJSONRPCOverTextFrames(t *testing.T) {
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		typ, data, err := c.Read(ctx)
		if err != nil || typ != websocket.MessageText {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`))
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":`+string(frameID(data))+`,"result":{}}`))
		_, _, _ = c.Read(ctx)
	})
	tr, fr, got := dial(t, Config{URL: p.url, Client: httpconf.Client{Header: http.Header{"Authorization": {"Bearer s3cret-token"}}, Origin: "https://app.example"}})
	if err := tr.Send(ctxT(t), request(t, 7, mcp.MethodPing, nil)); err != nil {
		t.Fatal(err)
	}
	if m := next(t, got); m.Method != "notifications/message" {
		t.Errorf("first delivered %+v", m)
	}
	if m := next(t, got); m.ID == nil || m.ID.Key() != jsonrpc.IntID(7).Key() || m.Kind() != jsonrpc.KindResult {
		t.Errorf("answer %+v", m)
	}
	up := p.request()
	if up.Header.Get("Sec-WebSocket-Protocol") != "mcp" || up.Header.Get("Origin") != "https://app.example" || up.Header.Get("Authorization") != "Bearer s3cret-token" {
		t.Errorf("upgrade headers %v", up.Header)
	}
	if f := fr.find("GET /mcp HTTP/1.1"); f == nil || !strings.Contains(string(f.Raw), "Bearer [redacted") || strings.Contains(string(f.Raw), "s3cret") {
		t.Errorf("the captured upgrade leaks or lacks the credential: %v", f)
	}
	if fr.find("101 Switching Protocols") == nil || fr.find(`the server chose the subprotocol "mcp"`) == nil {
		t.Error("the answer or the subprotocol choice is not captured")
	}
	if ls := tr.LinkState(); ls.Transport != "WebSocket (mcp)" {
		t.Errorf("link state %+v", ls)
	}
	if f := fr.find(`"method":"ping"`); f == nil || f.Msg == nil || f.Dir != outgoing {
		t.Errorf("the sent frame: %+v", f)
	}
	if f := fr.find(`"data":"hi"`); f == nil || f.Msg == nil || f.Msg.Method != "notifications/message" {
		t.Errorf("the received frame is not decoded: %+v", f)
	}
}

// A server that does not choose "mcp" is still spoken to, and the capture
// says it chose none.
func TestNoSubprotocolChosen(t *testing.T) {
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) { _, _, _ = c.Read(ctx) })
	tr, fr, _ := dial(t, Config{URL: p.url})
	if fr.find(`the server chose no subprotocol (offered "mcp")`) == nil {
		t.Error("no note of the missing subprotocol")
	}
	if ls := tr.LinkState(); ls.Transport != "WebSocket" {
		t.Errorf("link state %+v", ls)
	}
}

// A message over MaxFrameSize closes the connection with 1009 and the
// error names the limit and the code.
func TestMessageOverTheLimit(t *testing.T) {
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		big := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 4096) + `"}}`
		_ = c.Write(ctx, websocket.MessageText, []byte(big))
		_, _, _ = c.Read(ctx)
	})
	tr, fr, _ := dial(t, Config{URL: p.url, Client: httpconf.Client{MaxFrameSize: 1024}})
	err := gone(t, tr)
	if err == nil || !strings.HasPrefix(err.Error(), "the server sent a message over --max-frame-size (1024 bytes)") || !strings.Contains(err.Error(), "1009 (message too big)") {
		t.Fatalf("err = %v", err)
	}
	if fr.find("close 1009 (message too big)") == nil {
		t.Error("the close is not captured")
	}
}

// A close frame from the server ends the connection with its code and
// reason in the error; 1011 reads as an internal error. Err is the reason
// alone; a send after it fails with the one ConnectionError that says the
// connection was lost.
func TestServerCloseNamesCodeAndReason(t *testing.T) {
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Close(websocket.StatusInternalError, "database on fire")
	})
	tr, fr, _ := dial(t, Config{URL: p.url})
	err := gone(t, tr)
	if err == nil || !strings.Contains(err.Error(), "1011 (internal error): database on fire") {
		t.Fatalf("err = %v", err)
	}
	if fr.find("close 1011 (internal error): database on fire") == nil {
		t.Error("the close frame is not captured")
	}
	if strings.Contains(err.Error(), "connection lost") {
		t.Errorf("Err wraps its reason: %v", err)
	}
	err = tr.Send(ctxT(t), request(t, 1, mcp.MethodPing, nil))
	var ce *client.ConnectionError
	if !errors.As(err, &ce) || err.Error() != "connection lost: the server closed the WebSocket with 1011 (internal error): database on fire" {
		t.Errorf("a send after the close: %v", err)
	}
}

// A server ping is captured with the pong that answers it.
func TestPingCaptured(t *testing.T) {
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		go func() { _, _, _ = c.Read(ctx) }()
		_ = c.Ping(ctx)
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
		<-ctx.Done()
	})
	_, fr, got := dial(t, Config{URL: p.url})
	next(t, got)
	ping, pong := fr.find("ping "), fr.find("pong ")
	if ping == nil || ping.Dir != incoming || pong == nil || pong.Dir != outgoing {
		t.Errorf("ping %+v pong %+v", ping, pong)
	}
}

// An upgrade refused says the status; one redirected is not followed.
func TestUpgradeRefusedOrRedirected(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string
	}{
		{http.StatusUnauthorized, "answered 401 Unauthorized: go away (pass credentials with --header)"},
		{http.StatusFound, "a WebSocket upgrade is not followed elsewhere"},
	} {
		srv := startHTTP(t, tc.status)
		tr, err := New(Config{URL: srv})
		if err != nil {
			t.Fatal(err)
		}
		err = tr.Start(ctxT(t), func(*jsonrpc.Message) {})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d: err = %v, want %q", tc.status, err, tc.want)
		}
		_ = tr.Close()
	}
}

// A call before the socket is open is refused, in every mode (seed 004's
// checklist: "Client rejects tool calls if the socket is not open"), and
// so is one after Close; nothing reaches the wire and no wire id is taken.
func TestSendBeforeStart(t *testing.T) {
	for _, mode := range []Mode{ModeJSONRPC, ModeTools, ModeGateway} {
		fr := &frames{}
		tr, err := New(Config{URL: "ws://127.0.0.1:1/mcp", Mode: mode, Sink: fr})
		if err != nil {
			t.Fatal(err)
		}
		call := request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "echo"})
		if err := tr.Send(ctxT(t), call); err == nil || !strings.Contains(err.Error(), "the WebSocket transport is not started") {
			t.Errorf("mode %d: a call before Start: %v", mode, err)
		}
		_ = tr.Close()
		if err := tr.Send(ctxT(t), call); !errors.Is(err, client.ErrClosed) {
			t.Errorf("mode %d: a call after Close: %v", mode, err)
		}
		if len(fr.all) != 0 || len(tr.tools.pending) != 0 || tr.tools.last != 0 {
			t.Errorf("mode %d: %d frames captured, %d calls pending, wire id %d", mode, len(fr.all), len(tr.tools.pending), tr.tools.last)
		}
	}
}

// A server that never answers the close frame costs Close at most
// closeWait, not the library's own five seconds.
func TestCloseIsBounded(t *testing.T) {
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		<-ctx.Done() // reads nothing: the close frame is never answered
	})
	tr, _, _ := dial(t, Config{URL: p.url})
	done := make(chan struct{})
	go func() { _ = tr.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(4 * time.Second):
		t.Fatal("Close waited past its bound for the server's close frame")
	}
}

// A token in the upgrade's query is redacted in the capture.
func TestQueryTokenRedacted(t *testing.T) {
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) { _, _, _ = c.Read(ctx) })
	_, fr, _ := dial(t, Config{URL: p.url + "?access_token=s3cret&room=1"})
	f := fr.find("GET /mcp?")
	if f == nil || strings.Contains(string(f.Raw), "s3cret") || !strings.Contains(string(f.Raw), "access_token=[redacted-6-bytes]&room=1") {
		t.Errorf("captured upgrade: %v", f)
	}
	if p.request().URL.Query().Get("access_token") != "s3cret" {
		t.Error("the token did not reach the server")
	}
}

// The gateway carries an MCP session as ws does, so it offers "mcp" too
// and says whether the server chose it; seed 004's tool frames offer
// nothing.
func TestSubprotocolOfferedByMode(t *testing.T) {
	for _, tc := range []struct {
		mode   Mode
		accept []string
		offer  string
		link   string
		note   string
	}{
		{ModeGateway, []string{"mcp"}, "mcp", "gateway (mcp)", `the server chose the subprotocol "mcp"`},
		{ModeGateway, nil, "mcp", "gateway", `the server chose no subprotocol (offered "mcp")`},
		{ModeJSONRPC, []string{"mcp"}, "mcp", "WebSocket (mcp)", `the server chose the subprotocol "mcp"`},
		{ModeTools, []string{"mcp"}, "", "tools-ws", ""},
	} {
		p := startPeer(t, tc.accept, func(ctx context.Context, c *websocket.Conn) { _, _, _ = c.Read(ctx) })
		tr, fr, _ := dial(t, Config{URL: p.url, Mode: tc.mode})
		if got := p.request().Header.Get("Sec-WebSocket-Protocol"); got != tc.offer {
			t.Errorf("%s: offered %q, want %q", tc.link, got, tc.offer)
		}
		if ls := tr.LinkState(); ls.Transport != tc.link {
			t.Errorf("link state %q, want %q", ls.Transport, tc.link)
		}
		if tc.note != "" && fr.find(tc.note) == nil {
			t.Errorf("%s: no note %q", tc.link, tc.note)
		}
		if tc.note == "" && fr.find("subprotocol") != nil {
			t.Errorf("%s: a note of a subprotocol never offered", tc.link)
		}
	}
}
