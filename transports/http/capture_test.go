package mcphttp

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// fieldNamed returns the first field of f named name.
func fieldNamed(f *capture.Frame, name string) (proto.Field, bool) {
	for _, x := range f.Fields {
		if x.Name == name {
			return x, true
		}
	}
	return proto.Field{}, false
}

// Each exchange is captured as frames on its own connection: the request
// head on the HTTP channel with its fields annotated, the body with its
// message, the response head, and each SSE event as its own frame with
// its fields and message.
func TestCaptureOfAnExchange(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		put := openSSE(w)
		put("id: 7\nevent: message\nretry: 900\ndata: " + resultOf(m, `{"content":[]}`) + "\n\n")
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 3, mcp.MethodToolsCall, map[string]any{"name": "echo"}))
	r.in.next(t)
	var conn string
	head := r.frame(t, "the POST's head", func(f *capture.Frame) bool {
		return f.Dir == capture.Out && f.Chan.Kind == capture.HTTP && strings.HasPrefix(string(f.Raw), "POST /mcp HTTP/1.1\r\n")
	})
	conn = head.Conn
	if !strings.HasPrefix(conn, "http POST ") {
		t.Errorf("POST on connection %q", conn)
	}
	for name, value := range map[string]string{"method": "POST", "target": "/mcp", "Accept": acceptBoth, "Content-Type": "application/json"} {
		if x, ok := fieldNamed(head, name); !ok || x.Value != value || string(head.Raw[x.Offset:x.Offset+x.Len]) == "" {
			t.Errorf("request head field %s = %+v", name, x)
		}
	}
	on := func(dir capture.Dir, kind capture.ChannelKind) func(*capture.Frame) bool {
		return func(f *capture.Frame) bool { return f.Conn == conn && f.Dir == dir && f.Chan.Kind == kind }
	}
	body := r.frame(t, "the POST's body", on(capture.Out, capture.Control))
	if body.Msg == nil || body.Msg.Method != mcp.MethodToolsCall || !strings.Contains(string(body.Raw), `"name":"echo"`) {
		t.Errorf("body frame: Msg %+v, Raw %s", body.Msg, body.Raw)
	}
	rsp := r.frame(t, "the response head", on(capture.In, capture.HTTP))
	if x, ok := fieldNamed(rsp, "status"); !ok || x.Value != "200 OK" {
		t.Errorf("status field %+v", x)
	}
	if x, ok := fieldNamed(rsp, "Content-Type"); !ok || x.Value != "text/event-stream" {
		t.Errorf("Content-Type field %+v", x)
	}
	ev := r.frame(t, "the event", on(capture.In, capture.Control))
	if ev.Msg == nil || !ev.Msg.IsResponse() || ev.Err != nil || !strings.HasPrefix(string(ev.Raw), "id: 7\n") {
		t.Errorf("event frame: Msg %+v, Err %v, Raw %q", ev.Msg, ev.Err, ev.Raw)
	}
	for name, value := range map[string]string{"id": "7", "event": "message", "retry": "900"} {
		if x, ok := fieldNamed(ev, name); !ok || x.Value != value {
			t.Errorf("event field %s = %+v", name, x)
		}
	}
	hasBody := false
	for _, x := range ev.Fields {
		hasBody = hasBody || x.Kind == proto.FieldBody
	}
	if _, ok := fieldNamed(ev, "data"); !ok || !hasBody {
		t.Errorf("event fields %+v lack the data line or its body", ev.Fields)
	}
}

// The POSTs and the GET stream are told apart by their connection names.
func TestCaptureNamesPostsAndGets(t *testing.T) {
	f := newFake(t)
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		openSSE(w)(event("g", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`))
		f.hold(r)
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	r.in.next(t)
	names := map[string]bool{}
	for _, fr := range r.frames(func(f *capture.Frame) bool { return f.Chan.Kind == capture.HTTP && f.Dir == capture.Out }) {
		names[strings.SplitN(string(fr.Raw), " ", 2)[0]+" on "+fr.Conn] = true
	}
	// initialize, then the GET stream (opened before initialized goes out),
	// then notifications/initialized.
	for _, want := range []string{"POST on http POST 1", "GET on http GET 2", "POST on http POST 3"} {
		if !names[want] {
			t.Errorf("no %s; got %v", want, names)
		}
	}
	ev := r.frame(t, "the GET's event", func(f *capture.Frame) bool { return f.Conn == "http GET 2" && f.Chan.Kind == capture.Control })
	if ev.Msg == nil || ev.Msg.Method != mcp.MethodNotifyMessage {
		t.Errorf("GET event %+v", ev)
	}
}

// Credentials are redacted in the captured heads unless NoRedact is set;
// the server gets them either way.
func TestCaptureRedactsCredentials(t *testing.T) {
	for _, noRedact := range []bool{false, true} {
		f := newFake(t)
		f.on(mcp.MethodPing, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
			w.Header().Set("Set-Cookie", "sid=server-secret")
			writeJSON(w, http.StatusOK, resultOf(m, "{}"))
		})
		r := newRig(t, f.URL(), func(c *Config) {
			c.Header = http.Header{"Authorization": {"Bearer tok-123"}, "Cookie": {"a=b"}, "X-Api-Key": {"k-9"}}
			c.NoRedact = noRedact
		})
		r.send(t, request(t, 1, mcp.MethodPing, nil))
		r.in.next(t)
		if got := f.requests(nil)[0].Header.Get("Authorization"); got != "Bearer tok-123" {
			t.Errorf("the server got Authorization %q", got)
		}
		out := r.frame(t, "the request head", func(f *capture.Frame) bool { return f.Dir == capture.Out && f.Chan.Kind == capture.HTTP })
		in := r.frame(t, "the response head", func(f *capture.Frame) bool { return f.Dir == capture.In && f.Chan.Kind == capture.HTTP })
		text := string(out.Raw) + string(in.Raw)
		for _, secret := range []string{"tok-123", "a=b", "k-9", "server-secret"} {
			if strings.Contains(text, secret) != noRedact {
				t.Errorf("NoRedact %v: %q shown %v in\n%s", noRedact, secret, !noRedact, text)
			}
		}
		if !noRedact && !strings.Contains(text, "Authorization: Bearer [redacted 7 bytes]") {
			t.Errorf("no redaction mark in\n%s", text)
		}
	}
}

// A redirect to another origin drops the credentials and every header the
// user added; one within the origin keeps them.
func TestRedirectToAnotherOriginDropsCredentials(t *testing.T) {
	other := newFake(t)
	f := newFake(t)
	f.on(mcp.MethodPing, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if r.URL.Path == "/mcp" {
			http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
			return
		}
		http.Redirect(w, r, other.URL(), http.StatusTemporaryRedirect)
	})
	r := newRig(t, f.URL(), func(c *Config) {
		c.Header = http.Header{"Authorization": {"Bearer tok"}, "Cookie": {"c=1"}, "X-Tenant": {"acme"}}
	})
	r.send(t, request(t, 1, mcp.MethodPing, nil))
	if m := r.in.next(t); !m.IsResponse() {
		t.Fatalf("delivered %s", m.Raw)
	}
	moved := f.await(2, "the redirected POST", method(http.MethodPost))[1]
	if moved.Path != "/moved" || moved.Header.Get("Authorization") == "" || moved.Header.Get("X-Tenant") == "" {
		t.Errorf("same-origin redirect: %s with %v", moved.Path, moved.Header)
	}
	got := other.await(1, "the redirected POST", method(http.MethodPost))[0]
	for _, h := range []string{"Authorization", "Cookie", "X-Tenant"} {
		if v := got.Header.Get(h); v != "" {
			t.Errorf("%s = %q followed the redirect to another origin", h, v)
		}
	}
	if got.Msg == nil || got.Msg.Method != mcp.MethodPing {
		t.Errorf("the other origin got %q", got.Body)
	}
}

// Each redirect is captured: the 3xx head and the request that follows.
func TestCaptureShowsRedirects(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodPing, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if r.URL.Path == "/mcp" {
			http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
			return
		}
		writeJSON(w, http.StatusOK, resultOf(m, "{}"))
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodPing, nil))
	r.in.next(t)
	r.frame(t, "the 307", func(f *capture.Frame) bool {
		return f.Dir == capture.In && f.Chan.Kind == capture.HTTP && strings.Contains(string(f.Raw), "307 Temporary Redirect")
	})
	again := r.frame(t, "the redirected request", func(f *capture.Frame) bool {
		return f.Dir == capture.Out && f.Chan.Kind == capture.HTTP && strings.HasPrefix(string(f.Raw), "POST /moved ")
	})
	if again.Conn != "http POST 1" {
		t.Errorf("redirected request on %q", again.Conn)
	}
}
