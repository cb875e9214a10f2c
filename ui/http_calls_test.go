package ui

import (
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestSessionConn: the exchanges of an HTTP session belong to one
// connection, the generation kept; other names are left as they are.
func TestSessionConn(t *testing.T) {
	for conn, want := range map[string]string{
		"http POST 3":         "http",
		"http GET 1":          "http",
		"http DELETE 9#2":     "http#2",
		"my server POST 12#3": "my server#3",
		"stdio":               "stdio",
		"wt#2":                "wt#2",
		"ws":                  "ws",
		"http PUT 3":          "http PUT 3",
		"http POST x":         "http POST x",
		"POST 3":              "POST 3",
		"":                    "",
	} {
		if got := sessionConn(conn); got != want {
			t.Errorf("sessionConn(%q) = %q, want %q", conn, got, want)
		}
	}
}

// httpExchangesStore holds a Streamable HTTP session as mcphttp captures
// it, each exchange a connection of its own: tools/call 3 on POST 5 with
// its progress, the cancellation of it on POST 6; tools/call 4 on POST 7
// answered on the GET stream (as a legacy HTTP+SSE answer comes); the
// server's elicitation/create 0 on the GET stream answered on POST 8.
func httpExchangesStore(t testing.TB) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(conn string, dir capture.Dir, m *jsonrpc.Message) {
		f := controlFrame(t, dir, c.next(), proto.EncJSON, m)
		f.Conn = conn
		st.Append(f)
	}
	add("http POST 5", capture.Out, request(t, 3, mcp.MethodToolsCall, map[string]any{"_meta": map[string]any{"progressToken": 3},
		"name": "trigger-long-running-operation"}))
	add("http POST 5", capture.In, notification(t, mcp.MethodNotifyProgress, map[string]any{"progressToken": 3, "progress": 1, "total": 2}))
	add("http POST 6", capture.Out, notification(t, mcp.MethodNotifyCancelled, map[string]any{"requestId": 3}))
	add("http POST 7", capture.Out, request(t, 4, mcp.MethodToolsCall, map[string]any{"name": "echo"}))
	add("http GET 1", capture.In, result(t, 4, map[string]any{"content": []any{}}))
	add("http GET 1", capture.In, request(t, 0, mcp.MethodElicitationCreate, map[string]any{"message": "?"}))
	add("http POST 8", capture.Out, result(t, 0, map[string]any{"action": "decline"}))
	return st
}

// TestHTTPExchangesShareTheCall: the frames of one call on different
// exchanges of an HTTP session are one call's: the cancellation names and
// marks the call it cancels, the answer on the GET stream names its
// request, the client's answer on a POST names the server's request.
func TestHTTPExchangesShareTheCall(t *testing.T) {
	m := newTestModel(t, httpExchangesStore(t), 140, 30)
	long, echo := "tools/call trigger-long-running-operation", "tools/call echo"
	want := []string{
		"3 " + long + " " + markCancelled,
		"3 " + mcp.MethodNotifyProgress + " · " + long,
		"3 " + mcp.MethodNotifyCancelled + " " + markCancelled + " · " + long,
		"4 " + echo,
		"4 result · " + echo,
		"0 " + mcp.MethodElicitationCreate,
		"0 result · " + mcp.MethodElicitationCreate,
	}
	if got := labels(t, m, []uint64{1, 2, 3, 4, 5, 6, 7}); !slices.Equal(got, want) {
		t.Errorf("labels\n%q\nwant\n%q", got, want)
	}
}
