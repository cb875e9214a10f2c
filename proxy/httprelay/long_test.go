package httprelay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// longResult is a tools/call result of about n bytes.
func longResult(n int) string {
	return `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("a", n) + `"}]}}`
}

// longFrame is the one captured message going dir whose error says it was
// carried on unheld, or nil.
func longFrame(frames []*capture.Frame, dir capture.Dir) *capture.Frame {
	for _, f := range messages(frames, dir) {
		var e *BodyTooLongError
		if errors.As(f.Err, &e) || (f.Err != nil && strings.Contains(f.Err.Error(), "held whole")) {
			return f
		}
	}
	return nil
}

// A JSON answer past the 16 MiB the relay holds reaches the host whole,
// byte for byte; the capture keeps its head, its true size and an error
// saying it was carried on unheld.
func TestRelayCarriesJSONAnswerPastMaxBody(t *testing.T) {
	body := longResult(maxBody + 1<<20)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, nil)
	got, err := io.ReadAll(rsp.Body)
	rsp.Body.Close()
	if err != nil || string(got) != body {
		t.Fatalf("the host got %d of %d bytes, err %v", len(got), len(body), err)
	}
	f := longFrame(p.frames(t), capture.In)
	if f == nil || f.Size != len(body) || len(f.Raw) != keptHead || !bytes.HasPrefix([]byte(body), f.Raw) {
		t.Fatalf("the answer's capture: %+v", f)
	}
}

// A host's POST body past 16 MiB reaches the server whole instead of
// being refused; its capture is its head and its size.
func TestRelayCarriesPOSTBodyPastMaxBody(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"` + strings.Repeat("b", maxBody+1<<20) + `"}}`
	got := make(chan []byte, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, body, nil)
	answer, _ := io.ReadAll(rsp.Body)
	rsp.Body.Close()
	if rsp.StatusCode != http.StatusOK || string(answer) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("the host got %d %q", rsp.StatusCode, answer)
	}
	if b := recv(t, got); string(b) != body {
		t.Fatalf("the server got %d of %d bytes", len(b), len(body))
	}
	f := longFrame(p.frames(t), capture.Out)
	if f == nil || f.Size != len(body) || len(f.Raw) != keptHead {
		t.Fatalf("the request's capture: %+v", f)
	}
}

// The bytes of an event stream that belong to no event (a byte order
// mark, blank lines before, between and after events) reach the host as
// the server sent them: the host's stream is the server's, byte for byte.
func TestRelaySSEPassesBytesUnchanged(t *testing.T) {
	cases := map[string]string{
		"bom":        "\xEF\xBB\xBFdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"leadblank":  "\n\n: hi\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"crlf":       ": c\r\nretry: 5\r\nid: 7\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\"result\":{}}\r\n\r\n",
		"cronly":     "id: 3\rdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\r",
		"idonly":     "id: 9\n\nretry: 100\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"trailcomm":  "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: bye\n",
		"extrablank": "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n\n\n",
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, body)
			}))
			defer up.Close()
			p := startRelay(t, up.URL+"/mcp", Options{})
			rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
			got, _ := io.ReadAll(rsp.Body)
			rsp.Body.Close()
			if string(got) != body {
				t.Errorf("the host got %q\nthe server sent %q", got, body)
			}
		})
	}
}

// A host's line past 16 MiB does not end the bridge: the request is
// answered with a JSON-RPC error naming its id, its head is captured, and
// the next line is relayed as usual.
func TestProxyBridgeAnswersLongLineAndReadsOn(t *testing.T) {
	posts := make(chan int, 4)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- len(b)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	}))
	defer up.Close()
	b := startBridge(t, up.URL+"/mcp", nil)
	go func() {
		_, _ = io.WriteString(b.stdin, `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"x":"`+strings.Repeat("a", maxBody+1<<20)+"\"}}\n")
	}()
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if l := b.read(t); json.Unmarshal([]byte(l), &m) != nil || string(m.ID) != `"big-1"` || !strings.Contains(m.Error.Message, "longer than") {
		t.Fatalf("the host got %.300q", l)
	}
	b.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if l := b.read(t); l != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("after the long line the host got %q", l)
	}
	if n := recv(t, posts); n != len(`{"jsonrpc":"2.0","id":2,"method":"ping"}`) {
		t.Fatalf("the server got a post of %d bytes", n)
	}
}

// A JSON answer past 16 MiB reaches a stdio host whole, on one line.
func TestProxyBridgeCarriesLongAnswerOnOneLine(t *testing.T) {
	body := "{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{\"text\":\"" + strings.Repeat("c", maxBody+1<<20) + "\"}}"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	defer up.Close()
	b := startBridge(t, up.URL+"/mcp", nil)
	b.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	if l := b.read(t); l != strings.Replace(body, "\n", " ", 1) {
		t.Fatalf("the host got a line of %d bytes, want %d", len(l), len(body))
	}
}

// recv is the next value of ch, failing the test past guard.Hang.
func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard.Hang):
		t.Fatal("nothing came")
	}
	var zero T
	return zero
}

// stuckWriter is a host's response whose writes block until released: a
// host that does not read.
type stuckWriter struct {
	header  http.Header
	writing chan struct{}
	release chan struct{}
}

func (w *stuckWriter) Header() http.Header { return w.header }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) Write(b []byte) (int, error) {
	close(w.writing)
	<-w.release
	return len(b), nil
}

// A cut does not wait for a write to a host that does not read: Cut
// returns while the write is stuck, and the exchange is marked broken.
func TestExchangeCutDoesNotWaitForAStuckWrite(t *testing.T) {
	p := startRelay(t, "http://127.0.0.1:1/mcp", Options{})
	r, err := New(Options{Session: p.Sess, Upstream: mustURL(t, "http://127.0.0.1:1/mcp"), Client: http.DefaultClient})
	if err != nil {
		t.Fatal(err)
	}
	w := &stuckWriter{header: http.Header{}, writing: make(chan struct{}), release: make(chan struct{})}
	defer close(w.release)
	ex := &exchange{r: r, w: w, rc: http.NewResponseController(w), conn: "http GET 1", cancel: func() {}}
	go func() { _ = ex.raw(context.Background(), []byte("data: x\n\n")) }()
	recv(t, w.writing)
	cut := make(chan struct{})
	go func() { ex.Cut("test"); close(cut) }()
	recv(t, cut)
	if !ex.broken.Load() {
		t.Fatal("the exchange is not marked broken")
	}
}

// mustURL parses s.
func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// An event past the 16 MiB the relay holds reaches the host whole, and
// the events after it are relayed as messages as before; the host's
// stream is the server's byte for byte.
func TestRelayCarriesSSEEventPastMaxBody(t *testing.T) {
	long := "id: 1\r\ndata: " + longResult(maxBody+1<<20) + "\r\n\r\n"
	after := "\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, ": first\n\n"+long+after)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, nil)
	got, err := io.ReadAll(rsp.Body)
	rsp.Body.Close()
	if want := ": first\n\n" + long + after; err != nil || string(got) != want {
		t.Fatalf("the host got %d of %d bytes, err %v", len(got), len(want), err)
	}
	frames := p.frames(t)
	f := longFrame(frames, capture.In)
	if f == nil || f.Size != len(long) || len(f.Raw) != keptHead {
		t.Fatalf("the long event's capture: %+v", f)
	}
	n := 0
	for _, m := range messages(frames, capture.In) {
		if m.Msg != nil {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d messages after the long event, want 2", n)
	}
}
