package tasks_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sentMethods counts the requests and notifications a session sends, by
// method.
type sentMethods struct {
	mu sync.Mutex
	n  map[string]int
}

// Append counts f when it is a message the client sent (capture.Sink).
func (c *sentMethods) Append(f *capture.Frame) uint64 {
	if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method != "" {
		c.mu.Lock()
		c.n[f.Msg.Method]++
		c.mu.Unlock()
	}
	return 0
}

func (c *sentMethods) count(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method]
}

// A task that asks to be polled every 30 s is followed over the HTTP demo
// to its end at the pace of its changes: the follow's subscriptions/listen
// brings each status as it changes, the result inlined in the completed
// one, so no tasks/get is needed.
func TestFollowPushedStatus(t *testing.T) {
	t.Parallel()
	sent := &sentMethods{n: map[string]int{}}
	res, seen, err := callCapturing(t, sent, "slow_compute", map[string]any{"seconds": 0.3, "pollIntervalMs": 30000},
		tasks.Options{MaxTime: 20 * time.Second})
	if err != nil || !strings.Contains(string(res), "Computed for 0.3 s") {
		t.Fatalf("%s %v", res, err)
	}
	working := slices.IndexFunc(seen, func(s mcp.TaskStatus) bool { return s != mcp.TaskWorking })
	if len(seen) < 3 || working != len(seen)-1 || seen[working] != mcp.TaskCompleted {
		t.Errorf("statuses %v: want working, its pushed changes, completed", seen)
	}
	if n := sent.count(mcp.MethodTasksGet); n > 2 {
		t.Errorf("tasks/get sent %d times, want at most 2: the status is pushed", n)
	}
	if n := sent.count(mcp.MethodSubscriptionsListen); n != 1 {
		t.Errorf("subscriptions/listen sent %d times, want 1", n)
	}
}

// modernTaskPeer connects a 2026-07-28 session to a TaskPeer that
// declares the Tasks extension in server/discover and answers every other
// request with script, which may deliver messages of its own through the
// peer it is handed.
func modernTaskPeer(t *testing.T, script func(p *screentest.TaskPeer, m *jsonrpc.Message) (string, *jsonrpc.Error, bool)) (*screentest.TaskPeer, *client.Session) {
	t.Helper()
	var peer atomic.Pointer[screentest.TaskPeer]
	p, s := screentest.ConnectTaskPeer(t, nil, client.Options{ProtocolVersion: mcp.Modern}, func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		if m.Method == mcp.MethodDiscover {
			return `{"resultType":"complete","supportedVersions":["` + mcp.Modern + `"],"capabilities":{"tools":{},` +
				`"extensions":{"` + mcp.ExtensionTasks + `":{}}},"_meta":{"` + mcp.MetaServerInfo + `":{"name":"tasker","version":"2"}}}`, nil, true
		}
		return script(peer.Load(), m)
	})
	peer.Store(p)
	if s.Era() != client.EraModern {
		t.Fatalf("the session speaks %s", s.ProtocolVersion())
	}
	return p, s
}

// followModern follows handle on s within a max time of 10 s.
func followModern(t *testing.T, s *client.Session, handle string) (json.RawMessage, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	return tasks.Follow(ctx, s, json.RawMessage(handle), tasks.Options{MaxTime: 10 * time.Second})
}

// tagged is a notification of method with params (a JSON object) tagged
// with the subscription id of the listen request m.
func tagged(t *testing.T, m *jsonrpc.Message, method, params string) *jsonrpc.Message {
	t.Helper()
	id, err := json.Marshal(m.ID)
	if err != nil {
		t.Fatal(err)
	}
	params = `{"_meta":{"` + mcp.MetaSubscriptionID + `":` + string(id) + `},` + params[1:]
	return &jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: method, Params: json.RawMessage(params)}
}

// cancelled reports whether the client sent notifications/cancelled for
// the request id.
func cancelled(p *screentest.TaskPeer, id *jsonrpc.ID) bool {
	for _, m := range p.Sent(mcp.MethodNotifyCancelled) {
		var c mcp.CancelledNotificationParams
		if json.Unmarshal(m.Params, &c) == nil && c.RequestID.Key() == id.Key() {
			return true
		}
	}
	return false
}

// The follow's listen names the task in notifications.taskIds; the task's
// pushed completion (its result inlined) ends the follow of a task polled
// every 30 s with no tasks/get, and the listen is cancelled when the
// follow ends.
func TestFollowListenPushed(t *testing.T) {
	t.Parallel()
	p, s := modernTaskPeer(t, func(p *screentest.TaskPeer, m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		if m.Method != mcp.MethodSubscriptionsListen {
			return `{"resultType":"complete","taskId":"L1","status":"working"}`, nil, true
		}
		go func() {
			p.Deliver(tagged(t, m, mcp.MethodNotifySubscriptionsAck, `{"notifications":{"taskIds":["L1"]}}`))
			p.Deliver(tagged(t, m, mcp.MethodNotifyTasks, `{"taskId":"L1","status":"working","statusMessage":"pushed"}`))
			p.Deliver(tagged(t, m, mcp.MethodNotifyTasks, `{"taskId":"L1","status":"completed","result":{"content":[{"type":"text","text":"pushed result"}]}}`))
		}()
		return "", nil, false
	})
	res, err := followModern(t, s, `{"resultType":"task","taskId":"L1","status":"working","pollIntervalMs":30000}`)
	if err != nil || !strings.Contains(string(res), "pushed result") {
		t.Fatalf("%s %v", res, err)
	}
	listens := p.Sent(mcp.MethodSubscriptionsListen)
	if len(listens) != 1 || !strings.Contains(string(listens[0].Params), `"notifications":{"taskIds":["L1"]}`) {
		t.Fatalf("listens sent: %d", len(listens))
	}
	if n := len(p.Sent(mcp.MethodTasksGet)); n != 0 {
		t.Errorf("tasks/get sent %d times, want 0", n)
	}
	if !cancelled(p, listens[0].ID) {
		t.Error("the listen was not cancelled when the follow ended")
	}
}

// A server that refuses the listen leaves the task to polling, with no
// error.
func TestFollowListenRefused(t *testing.T) {
	t.Parallel()
	var gets atomic.Int32
	p, s := modernTaskPeer(t, func(_ *screentest.TaskPeer, m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		switch m.Method {
		case mcp.MethodSubscriptionsListen:
			return "", &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "method not found"}, true
		case mcp.MethodTasksGet:
			if gets.Add(1) < 2 {
				return `{"resultType":"complete","taskId":"R1","status":"working"}`, nil, true
			}
			return `{"resultType":"complete","taskId":"R1","status":"completed","result":{"content":[]}}`, nil, true
		}
		return `{}`, nil, true
	})
	res, err := followModern(t, s, string(v2Handle("R1")))
	if err != nil || string(res) != `{"content":[]}` {
		t.Fatalf("%s %v", res, err)
	}
	if n := len(p.Sent(mcp.MethodSubscriptionsListen)); n != 1 {
		t.Errorf("subscriptions/listen sent %d times, want 1", n)
	}
}

// A listen acknowledged without the task's id is cancelled at once, and
// the task is polled: here it ends only once the listen was cancelled.
func TestFollowListenNotAccepted(t *testing.T) {
	t.Parallel()
	var listen atomic.Pointer[jsonrpc.ID]
	p, s := modernTaskPeer(t, func(p *screentest.TaskPeer, m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		switch m.Method {
		case mcp.MethodSubscriptionsListen:
			listen.Store(m.ID)
			go p.Deliver(tagged(t, m, mcp.MethodNotifySubscriptionsAck, `{"notifications":{"taskIds":[]}}`))
			return "", nil, false
		case mcp.MethodTasksGet:
			if id := listen.Load(); id == nil || !cancelled(p, id) {
				return `{"resultType":"complete","taskId":"N1","status":"working"}`, nil, true
			}
			return `{"resultType":"complete","taskId":"N1","status":"completed","result":{"content":[]}}`, nil, true
		}
		return `{}`, nil, true
	})
	res, err := followModern(t, s, string(v2Handle("N1")))
	if err != nil || string(res) != `{"content":[]}` {
		t.Fatalf("%s %v", res, err)
	}
	if n := len(p.Sent(mcp.MethodTasksCancel)); n != 0 {
		t.Errorf("tasks/cancel sent %d times to a task that completed", n)
	}
}
