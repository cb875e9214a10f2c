package demohttp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The Tasks extension (SEP-2663, v2) as the stateless 2026-07-28 flavour
// serves it: a tools/call of a task tool from a client that declares the
// extension in its _meta is answered with a task handle; tasks/get,
// tasks/update and tasks/cancel follow it. The tasks outlive the request
// that created them, in a store of the Handler.

const (
	// maxTasks bounds the store: the oldest task is forgotten past it.
	maxTasks = 256
	// taskTTL is how long a task is kept, and how long it waits for the
	// answer to an input request.
	taskTTL = time.Minute
	// taskPoll is the poll interval the demo's tasks ask for.
	taskPoll = 50 * time.Millisecond
)

// task is one task of the store.
type task struct {
	mu      sync.Mutex
	snap    mcp.Task
	cancel  context.CancelFunc
	answers chan map[string]json.RawMessage // the tasks/update of an input_required round
	changed chan struct{}                   // closed, and replaced, at each change of the task
}

// taskStore holds the tasks of a Handler, bounded.
type taskStore struct {
	mu    sync.Mutex
	byID  map[string]*task
	order []string
}

// taskRun is the work of one task tool: it moves the task through its
// statuses with set and ask, and returns its CallToolResult or error.
type taskRun func(ctx context.Context, args json.RawMessage, t *task) (any, *jsonrpc.Error)

// snapshot is the task's state as tasks/get answers it.
func (t *task) snapshot() mcp.Task {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snap
}

// set moves the task to status with message.
func (t *task) set(status mcp.TaskStatus, msg string) { t.move(status, msg, nil) }

// move moves the task to status with message and input requests, unless
// it ended already, and tells its watchers.
func (t *task) move(status mcp.TaskStatus, msg string, reqs map[string]mcp.InputRequest) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.snap.Status.Terminal() {
		return
	}
	t.snap.Status, t.snap.StatusMessage, t.snap.InputRequests = status, msg, reqs
	t.snap.LastUpdatedAt = now()
	t.changedLocked()
}

// watch returns the task as tasks/get gives it and a channel closed at
// its next change.
func (t *task) watch() (mcp.Task, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snap, t.changed
}

// changedLocked tells the watchers of the task that it changed; t.mu is
// held.
func (t *task) changedLocked() {
	close(t.changed)
	t.changed = make(chan struct{})
}

// ask puts the task in input_required with the input requests and waits
// for tasks/update's answers (at most taskTTL).
func (t *task) ask(ctx context.Context, msg string, reqs map[string]mcp.InputRequest) (map[string]json.RawMessage, bool) {
	t.move(mcp.TaskInputRequired, msg, reqs)
	wait, stop := context.WithTimeout(ctx, taskTTL)
	defer stop()
	select {
	case a := <-t.answers:
		t.set(mcp.TaskWorking, "Input received")
		return a, true
	case <-wait.Done():
		return nil, false
	}
}

// end settles the task with its outcome, unless it is cancelled already.
func (t *task) end(result any, rerr *jsonrpc.Error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.snap.Status.Terminal() {
		return
	}
	t.snap.InputRequests = nil
	t.snap.LastUpdatedAt = now()
	defer t.changedLocked()
	if rerr != nil {
		t.snap.Status, t.snap.Error = mcp.TaskFailed, rerr
		t.snap.StatusMessage = rerr.Message
		return
	}
	raw, err := json.Marshal(result)
	if err != nil {
		t.snap.Status, t.snap.Error = mcp.TaskFailed, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: err.Error()}
		return
	}
	t.snap.Status, t.snap.Result, t.snap.StatusMessage = mcp.TaskCompleted, raw, "Done"
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// start creates a task running run in the background and returns its
// handle: the task as created, before the run moves it. The task asks to
// be polled at the interval args ask for (pollIntervalMs), else taskPoll.
func (s *taskStore) start(run taskRun, args json.RawMessage) mcp.Task {
	ctx, cancel := context.WithTimeout(context.Background(), taskTTL)
	ttl, poll := float64(taskTTL/time.Millisecond), askedPoll(args)
	t := &task{cancel: cancel, answers: make(chan map[string]json.RawMessage, 1), changed: make(chan struct{}),
		snap: mcp.Task{TaskID: rand.Text(), Status: mcp.TaskWorking, StatusMessage: "Started", CreatedAt: now(),
			TTLMs: (*mcp.Millis)(&ttl), PollIntervalMs: (*mcp.Millis)(&poll)}}
	t.snap.LastUpdatedAt = t.snap.CreatedAt
	s.mu.Lock()
	if s.byID == nil {
		s.byID = map[string]*task{}
	}
	if len(s.order) >= maxTasks {
		old := s.byID[s.order[0]]
		old.cancel()
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
	s.byID[t.snap.TaskID] = t
	s.order = append(s.order, t.snap.TaskID)
	s.mu.Unlock()
	handle := t.snap
	go func() {
		defer cancel()
		res, rerr := run(ctx, args, t)
		if res != nil || rerr != nil {
			t.end(res, rerr)
		}
	}()
	return handle
}

// askedPoll is the poll interval, in milliseconds, a task tool's
// arguments ask for with pollIntervalMs (10 to 60000), else taskPoll's.
func askedPoll(args json.RawMessage) float64 {
	var a struct {
		PollIntervalMs *float64 `json:"pollIntervalMs"`
	}
	if json.Unmarshal(args, &a) != nil || a.PollIntervalMs == nil || !(*a.PollIntervalMs >= 10 && *a.PollIntervalMs <= 60000) {
		return float64(taskPoll / time.Millisecond)
	}
	return *a.PollIntervalMs
}

// closeAll cancels every task.
func (s *taskStore) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.byID {
		t.cancel()
	}
}

// get returns the task with id, or nil.
func (s *taskStore) get(id string) *task {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// declaresTasks reports whether a 2026-07-28 request's _meta declares the
// Tasks extension among the client's capabilities.
func declaresTasks(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	var caps mcp.ClientCapabilities
	if json.Unmarshal(p.Meta[mcp.MetaClientCapabilities], &caps) != nil {
		return false
	}
	_, ok := caps.Extensions[mcp.ExtensionTasks]
	return ok
}

// serveTask answers the Tasks extension's requests and the tools/call of
// a task tool from a client that declares the extension; it reports
// whether it answered. tasks/result and tasks/list are not v2 methods:
// the connection answers them -32601.
func (h *Handler) serveTask(w http.ResponseWriter, m *jsonrpc.Message) bool {
	switch m.Method {
	case mcp.MethodToolsCall, mcp.MethodTasksGet, mcp.MethodTasksUpdate, mcp.MethodTasksCancel:
	default:
		return false
	}
	var p struct {
		Name      string                     `json:"name"`
		Arguments json.RawMessage            `json:"arguments"`
		TaskID    string                     `json:"taskId"`
		Responses map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(m.Params, &p)
	if m.Method == mcp.MethodToolsCall {
		run, ok := taskTools[p.Name]
		if !ok || !declaresTasks(m.Params) {
			return false
		}
		handle := h.tasks.start(run, p.Arguments)
		writeTaskAnswer(w, m.ID, taskResult(mcp.ResultTypeTask, handle), nil)
		return true
	}
	if !declaresTasks(m.Params) {
		writeTaskAnswer(w, m.ID, nil, &jsonrpc.Error{Code: mcp.CodeMissingClientCapability,
			Message: m.Method + " needs the " + mcp.ExtensionTasks + " extension declared in _meta"})
		return true
	}
	t := h.tasks.get(p.TaskID)
	if t == nil {
		writeTaskAnswer(w, m.ID, nil, &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: "Task not found: " + p.TaskID})
		return true
	}
	switch m.Method {
	case mcp.MethodTasksGet:
		writeTaskAnswer(w, m.ID, taskResult(mcp.ResultTypeComplete, t.snapshot()), nil)
	case mcp.MethodTasksUpdate:
		if t.snapshot().Status != mcp.TaskInputRequired {
			writeTaskAnswer(w, m.ID, nil, &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: "task " + p.TaskID + " asks for no input"})
			return true
		}
		select {
		case t.answers <- p.Responses:
		default:
		}
		writeTaskAnswer(w, m.ID, map[string]string{"resultType": mcp.ResultTypeComplete}, nil)
	case mcp.MethodTasksCancel:
		t.set(mcp.TaskCancelled, "Cancelled by the client")
		t.cancel()
		writeTaskAnswer(w, m.ID, map[string]string{"resultType": mcp.ResultTypeComplete}, nil)
	}
	return true
}

// taskResult is a task as a result of resultType: the handle of a new
// task (ResultTypeTask), or what tasks/get answers (ResultTypeComplete).
func taskResult(resultType string, t mcp.Task) any {
	return struct {
		ResultType string `json:"resultType"`
		mcp.Task
	}{resultType, t}
}

// writeTaskAnswer writes the answer of a task request as one JSON body.
func writeTaskAnswer(w http.ResponseWriter, id *jsonrpc.ID, result any, rerr *jsonrpc.Error) {
	if rerr != nil {
		writeRPCError(w, http.StatusOK, id, rerr)
		return
	}
	answer, err := jsonrpc.NewResult(*id, result)
	if err != nil {
		writeError(w, http.StatusInternalServerError, id, mcp.CodeInternalError, err.Error())
		return
	}
	writeMessage(w, http.StatusOK, answer)
}
