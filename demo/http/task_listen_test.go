package demohttp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// tasksBody is a 2026-07-28 request whose _meta declares the Tasks
// extension.
func tasksBody(t *testing.T, id int, method string, params map[string]any) string {
	t.Helper()
	params["_meta"] = map[string]any{mcp.MetaProtocolVersion: mcp.Modern,
		mcp.MetaClientInfo:         map[string]string{"name": "raw", "version": "1"},
		mcp.MetaClientCapabilities: map[string]any{"extensions": map[string]any{mcp.ExtensionTasks: map[string]any{}}}}
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(int64(id)), method, params)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.EncodeJSON()
	return string(b)
}

// startTask calls tool as a task and returns its id.
func (ts *testServer) startTask(tool string, args map[string]any) string {
	ts.t.Helper()
	resp := ts.post(PathMCP, tasksBody(ts.t, 1, mcp.MethodToolsCall, map[string]any{"name": tool, "arguments": args}),
		modernHeaders(mcp.MethodToolsCall, tool))
	m, err := jsonrpc.DecodeMessage([]byte(bodyOf(ts.t, resp)))
	if err != nil || m.Error != nil {
		ts.t.Fatalf("%s: %v %+v", tool, err, m)
	}
	task := decode[mcp.Task](ts.t, m.Result)
	if task.TaskID == "" || task.PollIntervalMs == nil {
		ts.t.Fatalf("%s: no task handle: %s", tool, m.Result)
	}
	return task.TaskID
}

// A listen with notifications.taskIds acknowledges the known ids once each
// (not an unknown one), tagged with its subscription id, then pushes the
// task as tasks/get gives it at each change, up to its end with the result
// inlined; Close ends the stream with its result, and no listen stays
// open. pollIntervalMs sets the interval the task asks for.
func TestListenTaskIDs(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Options{})
	id := ts.startTask(ToolSlowCompute, map[string]any{"seconds": 0.3, "pollIntervalMs": 30000})
	resp := ts.post(PathMCP, tasksBody(t, 7, mcp.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"taskIds": []string{id, "nope", id}, "toolsListChanged": true}}),
		modernHeaders(mcp.MethodSubscriptionsListen, ""))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaSSE {
		t.Fatalf("listen: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	es := readEvents(t, resp.Body)
	ack := es.message(t)
	var a struct {
		Meta          map[string]json.RawMessage `json:"_meta"`
		Notifications map[string]json.RawMessage `json:"notifications"`
	}
	if ack.Method != mcp.MethodNotifySubscriptionsAck || json.Unmarshal(ack.Params, &a) != nil ||
		string(a.Meta[mcp.MetaSubscriptionID]) != "7" || string(a.Notifications["taskIds"]) != `["`+id+`"]` || len(a.Notifications) != 1 {
		t.Fatalf("acknowledgement: %s %s", ack.Method, ack.Params)
	}
	if n := ts.h.Listens(); n != 1 {
		t.Errorf("%d listens open, want 1", n)
	}
	var seen []mcp.Task
	for len(seen) == 0 || !seen[len(seen)-1].Status.Terminal() {
		m := es.message(t)
		sub, ok := mcp.SubscriptionOf(m.Params)
		if m.Method != mcp.MethodNotifyTasks || !ok || sub.String() != "7" {
			t.Fatalf("pushed: %s %s", m.Method, m.Params)
		}
		seen = append(seen, decode[mcp.Task](t, m.Params))
	}
	last := seen[len(seen)-1]
	if len(seen) < 3 || seen[0].TaskID != id || seen[0].Status != mcp.TaskWorking || *seen[0].PollIntervalMs != 30000 ||
		last.Status != mcp.TaskCompleted || !strings.Contains(string(last.Result), "Computed for 0.3 s") {
		t.Fatalf("pushed %d snapshots, the last %+v", len(seen), last)
	}
	ts.h.Close()
	if end := es.message(t); end.Result == nil || !strings.Contains(string(end.Result), `"resultType":"complete"`) {
		t.Fatalf("the end of the stream: %+v", end)
	}
	if rest := es.end(t); len(rest) != 0 {
		t.Errorf("%d events after the result", len(rest))
	}
	if n := ts.h.Listens(); n != 0 {
		t.Errorf("%d listens open after the stream ended, want 0", n)
	}
}

// flushSignal is a ResponseRecorder that says when it was first flushed.
type flushSignal struct {
	*httptest.ResponseRecorder
	flushed chan struct{}
}

// Flush signals, once.
func (f *flushSignal) Flush() {
	select {
	case <-f.flushed:
	default:
		close(f.flushed)
	}
}

// waitClosed waits for ch to close, at most hangGuard.
func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(hangGuard):
		t.Fatalf("no %s within %s", what, hangGuard)
	}
}

// A listen of a running task ends when the client goes, and is no longer
// counted; one that accepts nothing (here from a client that does not
// declare the Tasks extension) ends at once with its result, so that it
// holds none of the Handler's maxListens slots.
func TestListenEndsWithTheClient(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Options{})
	id := ts.startTask(ToolTaskMisbehave, map[string]any{"mode": "stuck"})
	filter := map[string]any{"notifications": map[string]any{"taskIds": []string{id}}}
	for _, tc := range []struct {
		name     string
		body     string
		accepted string
	}{
		{"declared", tasksBody(t, 3, mcp.MethodSubscriptionsListen, filter), `"taskIds":["` + id + `"]`},
		{"undeclared", modernBody(t, 3, mcp.MethodSubscriptionsListen, filter), `"taskIds":[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := jsonrpc.DecodeMessage([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			ctx, leave := context.WithCancel(context.Background())
			defer leave()
			r := httptest.NewRequestWithContext(ctx, http.MethodPost, PathMCP, strings.NewReader(tc.body))
			r.Header.Set("Accept", mediaJSON+", "+mediaSSE)
			w := &flushSignal{ResponseRecorder: httptest.NewRecorder(), flushed: make(chan struct{})}
			done := make(chan struct{})
			go func() {
				defer close(done)
				ts.h.serveListen(w, r, m)
			}()
			if tc.name == "declared" {
				waitClosed(t, w.flushed, "the acknowledgement")
				if n := ts.h.Listens(); n != 1 {
					t.Errorf("%d listens open, want 1", n)
				}
				leave()
			}
			waitClosed(t, done, "the end of the listen")
			if n := ts.h.Listens(); n != 0 {
				t.Errorf("%d listens open after it ended, want 0", n)
			}
			es := readEvents(t, w.Body)
			if ack := es.message(t); !strings.Contains(string(ack.Params), tc.accepted) {
				t.Errorf("acknowledgement: %s", ack.Params)
			}
		})
	}
}

// 64 listens that accept nothing hold no slot: a real task's listen
// after them is served.
func TestListenAcceptingNothingHoldsNoSlot(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Options{})
	for i := range maxListens + 1 {
		resp := ts.post(PathMCP, tasksBody(t, 10+i, mcp.MethodSubscriptionsListen, map[string]any{"notifications": map[string]any{"taskIds": []string{"nope"}}}),
			modernHeaders(mcp.MethodSubscriptionsListen, ""))
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"resultType":"complete"`) {
			t.Fatalf("listen %d: %s\n%s", i+1, resp.Status, body)
		}
	}
	if n := ts.h.Listens(); n != 0 {
		t.Fatalf("%d listens open", n)
	}
}
