package demohttp

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// expire_session answers on its stream, then the session is gone: the
// next request on it is 404.
func TestMisbehaveExpireSession(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	resp := ts.post(PathMCP, misbehave(t, 2, demo.ModeExpireSession, nil), map[string]string{headerSession: sid})
	if m := readEvents(t, resp.Body).message(t); !strings.Contains(string(m.Result), "next request on it gets 404") {
		t.Fatalf("expire_session: %s", m.Raw)
	}
	if r := ts.post(PathMCP, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, map[string]string{headerSession: sid}); r.StatusCode != http.StatusNotFound {
		t.Errorf("after expiry: %s", r.Status)
	}
}

// wrong_content_type answers the POST with Content-Type text/html: a page
// holding the JSON-RPC answer; on Streamable HTTP and on seed 004's SSE.
func TestMisbehaveWrongContentType(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	for path, hd := range map[string]map[string]string{PathMCP: {headerSession: sid}, PathTools: sseAccept} {
		resp := ts.post(path, misbehave(t, 2, demo.ModeWrongContentType, nil), hd)
		body := bodyOf(t, resp)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(body, "<pre>{&#34;jsonrpc&#34;:&#34;2.0&#34;,&#34;id&#34;:2,") {
			t.Errorf("%s: %s %q %q", path, resp.Status, resp.Header.Get("Content-Type"), body)
		}
	}
}

// empty_event writes an event with an id and no data field, then the
// answer follows on the same stream.
func TestMisbehaveEmptyEvent(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	resp := ts.post(PathMCP, misbehave(t, 2, demo.ModeEmptyEvent, nil), map[string]string{headerSession: sid})
	body := bodyOf(t, resp)
	if !strings.Contains(body, "\n\nid: 2-1\nevent: message\n\nid: 2-2\nevent: message\ndata: {") {
		t.Errorf("stream %q", body)
	}
}

// huge_event writes one event whose data is size bytes (a padded log
// line), then the answer; a size over the bound is refused.
func TestMisbehaveHugeEvent(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	const size = 3<<20 + 7
	resp := ts.post(PathMCP, misbehave(t, 2, demo.ModeHugeEvent, map[string]any{"size": size}), map[string]string{headerSession: sid})
	r := bufio.NewReader(resp.Body)
	var huge int
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && len(data) > 1<<20 {
			huge = len(data) - 1
			m, err := jsonrpc.DecodeMessage([]byte(data))
			if err != nil || m.Method != mcp.MethodNotifyMessage {
				t.Errorf("the huge event is no log line: %v", err)
			}
		}
		if strings.Contains(line, `"result"`) && !strings.Contains(line, "one event whose data is 3145735 bytes") {
			t.Errorf("answer %q", line)
		}
	}
	if huge != size {
		t.Errorf("huge event data of %d bytes, want %d", huge, size)
	}
	resp = ts.post(PathMCP, misbehave(t, 3, demo.ModeHugeEvent, map[string]any{"size": int64(demo.MaxHugeEvent) + 1}), map[string]string{headerSession: sid})
	if m := readEvents(t, resp.Body).message(t); m.Error == nil || m.Error.Code != mcp.CodeInvalidParams {
		t.Errorf("oversize: %s", m.Raw)
	}
}

// heartbeats_only sends ": heartbeat" comments at each tick and never
// answers; cancelled, its stream ends without an answer.
func TestMisbehaveHeartbeatsOnly(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	resp := ts.post(PathMCP, misbehave(t, 2, demo.ModeHeartbeatsOnly, nil), map[string]string{headerSession: sid})
	ts.tick <- time.Time{}
	r := bufio.NewReader(resp.Body)
	var got []string
	for len(got) < 6 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	if strings.Join(got, "") != "id: 2-0\nretry: 1000\ndata:\n\n: heartbeat\n\n" {
		t.Errorf("stream %q", got)
	}
	if c := ts.post(PathMCP, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, map[string]string{headerSession: sid}); c.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %s", c.Status)
	}
	rest, err := io.ReadAll(r)
	if err != nil || strings.Contains(string(rest), "data:") {
		t.Errorf("after the cancel: %q %v", rest, err)
	}
}

// The modes refuse, with -32602 naming what they need, where they cannot
// be done: cut_sse and expire_session without a session (stateless, seed
// 004), the stream modes on a one-body JSON answer.
func TestMisbehaveRefusals(t *testing.T) {
	ts := startServer(t, Options{JSONResponse: true})
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, nil)
	sid := resp.Header.Get(headerSession)
	id := 1
	for _, c := range []struct {
		path, mode string
		headers    map[string]string
		want       string
	}{
		{PathMCP, demo.ModeCutSSE, map[string]string{headerSession: sid}, "needs an SSE stream"},
		{PathMCP, demo.ModeEmptyEvent, map[string]string{headerSession: sid}, "needs an SSE stream"},
		{PathMCP, demo.ModeHeartbeatsOnly, map[string]string{headerSession: sid}, "needs an SSE stream"},
		{PathTools, demo.ModeCutSSE, sseAccept, "needs a resumable stream"},
		{PathTools, demo.ModeExpireSession, sseAccept, "needs a session"},
		{PathTools, demo.ModeHugeEvent, map[string]string{"Accept": mediaJSON}, "needs an SSE stream"},
	} {
		id++
		resp := ts.post(c.path, misbehave(t, id, c.mode, nil), c.headers)
		body := bodyOf(t, resp)
		if !strings.Contains(body, `"code":-32602`) || !strings.Contains(body, c.want) {
			t.Errorf("%s %s: %q", c.path, c.mode, body)
		}
	}
	stateless := startServer(t, Options{})
	for _, mode := range []string{demo.ModeCutSSE, demo.ModeExpireSession} {
		resp := stateless.post(PathMCP, modernBody(t, 2, mcp.MethodToolsCall, map[string]any{"name": "misbehave", "arguments": map[string]any{"mode": mode}}),
			modernHeaders(mcp.MethodToolsCall, "misbehave"))
		if rerr := rpcErrorOf(t, resp); rerr.Code != mcp.CodeInvalidParams {
			t.Errorf("stateless %s: %+v", mode, rerr)
		}
	}
}
