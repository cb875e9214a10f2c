package mock

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

const (
	initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initialized       = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	echoRequest       = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`
)

// post sends body to the mock's endpoint with the session id, and
// returns the response's status, headers and body.
func post(t *testing.T, url, session, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set(headerSession, session)
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, http.Header, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// Over Streamable HTTP: initialize issues a session; the notification
// gets 202 and its messages go before the next answer, as events; a
// plain answer is JSON; an unknown session 404; GET 405; DELETE ends the
// session; a request without a session is answered too.
func TestHTTPHandler(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(NewHTTPHandler(load(t, session)))
	defer srv.Close()
	url := srv.URL + Path

	code, hd, body := post(t, url, "", initializeRequest)
	id := hd.Get(headerSession)
	if code != http.StatusOK || id == "" || !strings.Contains(body, `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize: %d %q %s", code, id, body)
	}
	if code, _, _ := post(t, url, id, initialized); code != http.StatusAccepted {
		t.Errorf("notification: %d", code)
	}
	code, hd, body = post(t, url, id, echoRequest)
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"ready\"}}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"first\"}]}}\n\n"
	if code != http.StatusOK || hd.Get("Content-Type") != "text/event-stream" || body != want {
		t.Errorf("after the notification: %d %s\n%s", code, hd.Get("Content-Type"), body)
	}
	code, hd, body = post(t, url, id, echoRequest)
	if code != http.StatusOK || hd.Get("Content-Type") != "application/json" || body != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"second"}]}}` {
		t.Errorf("a plain answer: %d %s %s", code, hd.Get("Content-Type"), body)
	}
	if code, _, _ := post(t, url, "mock-session-99", echoRequest); code != http.StatusNotFound {
		t.Errorf("unknown session: %d", code)
	}
	get, _ := http.NewRequest(http.MethodGet, url, nil)
	if code, hd, _ := do(t, get); code != http.StatusMethodNotAllowed || hd.Get("Allow") != "POST, DELETE" {
		t.Errorf("GET: %d %q", code, hd.Get("Allow"))
	}
	del, _ := http.NewRequest(http.MethodDelete, url, nil)
	del.Header.Set(headerSession, id)
	if code, _, _ := do(t, del); code != http.StatusOK {
		t.Errorf("DELETE: %d", code)
	}
	if code, _, _ := post(t, url, id, echoRequest); code != http.StatusNotFound {
		t.Errorf("after DELETE: %d", code)
	}
	if code, _, body := post(t, url, "", echoRequest); code != http.StatusOK || !strings.Contains(body, `"text":"first"`) {
		t.Errorf("without a session: %d %s", code, body)
	}
	evil, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(echoRequest))
	evil.Header.Set("Origin", "https://evil.example")
	if code, _, _ := do(t, evil); code != http.StatusForbidden {
		t.Errorf("a foreign Origin: %d", code)
	}
}

// Over WebSocket, one message a text frame, the unsolicited messages after
// notifications/initialized and the answers in order; Serve stops when
// its context ends, with the connection.
func TestWSHandler(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- Serve(sctx, ln, NewWSHandler(load(t, session))) }()
	c, resp, err := websocket.Dial(ctx, EndpointURL("ws", ln.Addr()), &websocket.DialOptions{Subprotocols: []string{Subprotocol}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if resp.Header.Get("Sec-WebSocket-Protocol") != Subprotocol {
		t.Errorf("subprotocol %q", resp.Header.Get("Sec-WebSocket-Protocol"))
	}
	for _, m := range []string{initializeRequest, initialized, echoRequest} {
		if err := c.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for range 4 {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	if !strings.Contains(got[0], `"id":1,"result"`) || !strings.Contains(got[1], "list_changed") || !strings.Contains(got[2], `"ready"`) || !strings.Contains(got[3], `"first"`) {
		t.Errorf("frames:\n%s", strings.Join(got, "\n"))
	}
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, _, err := c.Read(ctx); err == nil {
		t.Error("the connection outlived Serve")
	}
}

// Over stdio, a line each way; a blank line is skipped, the last line
// needs no LF, and the end of input ends it.
func TestServeStdio(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	in := strings.NewReader(initializeRequest + "\n\n" + initialized + "\r\n" + echoRequest)
	var out strings.Builder
	if err := ServeStdio(ctx, load(t, session), in, &out); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != 4 || !strings.Contains(got[3], `"id":2,"result":{"content":[{"type":"text","text":"first"}]}`) {
		t.Errorf("stdout:\n%s", out.String())
	}
}
