package wsrelay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proxy"
)

// echoServer serves a WebSocket on a loopback port that echoes every
// message in its own type, offering the subprotocol "mcp".
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		c.SetReadLimit(1 << 20)
		for {
			typ, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			if r.URL.RawQuery != "" {
				b = append([]byte(r.URL.RawQuery+" "), b...)
			}
			if r.Header.Get("Authorization") != "" {
				b = append([]byte(r.Header.Get("Authorization")+" "), b...)
			}
			if err := c.Write(r.Context(), typ, b); err != nil {
				return
			}
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "ws://" + ln.Addr().String() + "/echo"
}

// relayFor serves a relay of a fresh session to upstream on a loopback
// port until the test ends; it returns the session and the local URL.
func relayFor(t *testing.T, opt Options) (*proxy.Session, string) {
	t.Helper()
	sess, err := proxy.Open(proxy.Options{Name: "wsrelay-test", NoRecord: true, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(sess, opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- r.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		_ = sess.Close(nil)
	})
	return sess, r.LocalURL(ln.Addr())
}

// Several hosts at once, text and binary both ways, the Authorization
// header passed on untouched; each connection captured under its own
// name; an injected request reaches the server on the newest connection
// and its answer is kept from the host.
func TestRelayConnectionsAndInjection(t *testing.T) {
	sess, local := relayFor(t, Options{Upstream: echoServer(t)})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			hdr := http.Header{"Authorization": {fmt.Sprintf("Bearer t%d", i)}}
			c, _, err := websocket.Dial(ctx, local, &websocket.DialOptions{HTTPHeader: hdr, Subprotocols: []string{"mcp"}})
			if err != nil {
				t.Error(err)
				return
			}
			defer func() { _ = c.Close(websocket.StatusNormalClosure, "") }()
			for j := range 20 {
				typ := websocket.MessageText
				if j%2 == 1 {
					typ = websocket.MessageBinary
				}
				msg := fmt.Sprintf(`{"jsonrpc":"2.0","method":"n%d"}`, j)
				if err := c.Write(ctx, typ, []byte(msg)); err != nil {
					t.Error(err)
					return
				}
				gotTyp, b, err := c.Read(ctx)
				if want := fmt.Sprintf("Bearer t%d %s", i, msg); err != nil || gotTyp != typ || string(b) != want {
					t.Errorf("echo %v %q %v, want %v %q", gotTyp, b, err, typ, want)
					return
				}
			}
		})
	}
	wg.Wait()

	c, _, err := websocket.Dial(ctx, local, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.CloseNow() }()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Inject(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"after"}`)); err != nil {
		t.Fatal(err)
	}
	// The echo of the injected ping is a request, not its answer: the
	// host sees it, then the echo of "after".
	for _, want := range []string{`"method":"ping"`, `"method":"after"`} {
		if _, b, err := c.Read(ctx); err != nil || !strings.Contains(string(b), want) {
			t.Fatalf("read %q %v, want %s", b, err, want)
		}
	}
	conns := map[string]bool{}
	for _, f := range sess.Store().Last(sess.Store().Len()) {
		if f.Chan.Kind == capture.Control {
			conns[f.Conn] = true
		}
		if f.Chan.Kind == capture.HTTP && strings.Contains(string(f.Raw), "Bearer t") {
			t.Errorf("a credential is captured as it came: %s", f.Raw)
		}
	}
	if len(conns) < 5 {
		t.Errorf("connections captured: %v", conns)
	}
}

// Gateway stream messages are recorded on stream channels, chunks of a
// stream no start opened with an error; JSON-RPC goes on as messages.
func TestRelayGatewayFrames(t *testing.T) {
	sess, local := relayFor(t, Options{Upstream: echoServer(t), Gateway: true})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, local, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.CloseNow() }()
	id := gateway.NewGUID()
	start, _ := gateway.EncodeStreamMessage(&gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: &gateway.StreamMeta{Method: "m", Binary: true}})
	chunk := gateway.AppendGatewayChunk(nil, id, 0, []byte("payload"))
	stray := gateway.AppendGatewayChunk(nil, gateway.NewGUID(), 0, []byte("stray"))
	msgs := []struct {
		typ websocket.MessageType
		b   []byte
	}{{websocket.MessageText, start}, {websocket.MessageBinary, chunk}, {websocket.MessageBinary, stray}, {websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"x"}`)}}
	for _, m := range msgs {
		if err := c.Write(ctx, m.typ, m.b); err != nil {
			t.Fatal(err)
		}
		if _, b, err := c.Read(ctx); err != nil || string(b) != string(m.b) {
			t.Fatalf("echo %q %v", b, err)
		}
	}
	var streams, strayErr, rpc int
	for _, f := range sess.Store().Last(sess.Store().Len()) {
		if f.Dir != capture.Out {
			continue
		}
		switch {
		case f.Chan.Kind == capture.Stream && f.Err != nil:
			strayErr++
		case f.Chan.Kind == capture.Stream:
			streams++
		case f.Chan.Kind == capture.Control && f.Msg != nil:
			rpc++
		}
	}
	if streams != 1 || strayErr != 1 || rpc != 1 {
		t.Errorf("recorded %d chunks, %d stray chunks, %d messages", streams, strayErr, rpc)
	}
}

// The upstream URL's query (a credential, often) stays out of the URL the
// proxy prints and is added to a host's request that has none.
func TestRelayAddsUpstreamQuery(t *testing.T) {
	_, local := relayFor(t, Options{Upstream: echoServer(t) + "?key=secret"})
	if strings.Contains(local, "secret") {
		t.Errorf("the local URL shows the upstream's query: %s", local)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, local, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.CloseNow() }()
	if err := c.Write(ctx, websocket.MessageText, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, b, err := c.Read(ctx); err != nil || string(b) != "key=secret x" {
		t.Errorf("the server got %q %v", b, err)
	}
}

// The host's close code and reason reach the server.
func TestRelayPassesHostClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		_, _, err = c.Read(r.Context())
		got <- err
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, local := relayFor(t, Options{Upstream: "ws://" + ln.Addr().String() + "/"})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, local, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Close(4003, "host bye")
	select {
	case err := <-got:
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != 4003 || ce.Reason != "host bye" {
			t.Errorf("the server saw %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the server never saw the host close")
	}
}

// A message paused for a viewer does not keep a link open after the host
// left: it is let go with the link.
func TestRelayPausedMessageEndsWithLink(t *testing.T) {
	sess, local := relayFor(t, Options{Upstream: echoServer(t)})
	if err := sess.PauseOn([]proxy.Filter{{Method: "hold/me"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, local, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"hold/me"}`)); err != nil {
		t.Fatal(err)
	}
	flowtest.Eventually(t, "the message paused", func() bool { return len(sess.Held()) == 1 })
	_ = c.Close(websocket.StatusNormalClosure, "")
	flowtest.Eventually(t, "the paused message let go", func() bool { return len(sess.Held()) == 0 })
}

// A request that is no WebSocket upgrade is answered 426, the server
// left alone.
func TestRelayRefusesPlainHTTP(t *testing.T) {
	_, local := relayFor(t, Options{Upstream: echoServer(t)})
	rsp, err := (&http.Client{Timeout: guard.Hang}).Get("http" + strings.TrimPrefix(local, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	_ = rsp.Body.Close()
	if rsp.StatusCode != http.StatusUpgradeRequired {
		t.Errorf("a plain GET is answered %s", rsp.Status)
	}
}

func TestCutReason(t *testing.T) {
	long := ""
	for range 60 {
		long += "é"
	}
	if got := cutReason(long); len(got) > 123 || !utf8.ValidString(got) {
		t.Errorf("cut to %d bytes, valid %t", len(got), utf8.ValidString(got))
	}
	if code, _, _ := closing(capture.In, errors.New("EOF")); code != websocket.StatusGoingAway {
		t.Errorf("a dropped connection closes the other side with %d", code)
	}
}

// FuzzGatewayFrame: whatever a host or a server sends on a gateway
// connection is classified without a panic, and a frame, when there is
// one, holds the bytes as they came.
func FuzzGatewayFrame(f *testing.F) {
	id := gateway.NewGUID()
	start, _ := gateway.EncodeStreamMessage(&gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: &gateway.StreamMeta{Method: "m"}})
	f.Add(start, false)
	f.Add(gateway.AppendGatewayChunk(nil, id, 3, []byte("x")), true)
	f.Add([]byte(`{"type":"chunk","id":"00000000-0000-0000-0000-000000000000","index":1,"data":1}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), false)
	f.Add([]byte{1, 2, 3}, true)
	sess, err := proxy.Open(proxy.Options{Name: "fuzz", NoRecord: true, Log: func(string, ...any) {}})
	if err != nil {
		f.Fatal(err)
	}
	l := &link{r: &Relay{sess: sess, links: proxy.NewConns[*link]("ws")}, conn: "ws1"}
	f.Fuzz(func(t *testing.T, b []byte, binary bool) {
		typ := websocket.MessageText
		if binary {
			typ = websocket.MessageBinary
		}
		if fr := l.streams.frame(l, capture.Out, typ, b); fr != nil && string(fr.Raw) != string(b) {
			t.Fatalf("frame holds %q of %q", fr.Raw, b)
		}
	})
}
