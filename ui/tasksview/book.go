// Package tasksview is the Tasks view: the tasks the server started (the
// Tasks extension, SEP-2663 and its 2025-11-25 predecessor): each with its
// state, age, status message and the call that started it, linked both
// ways to the traffic.
package tasksview

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of the book: the oldest task is forgotten past maxTasks, a task
// links at most maxFrames frames, and at most maxOpen requests are
// awaited.
const (
	maxTasks  = 1024
	maxFrames = 512
	maxOpen   = 4096
)

// Task is what the book knows of one task.
type Task struct {
	ID      string
	Status  mcp.TaskStatus
	Message string
	Gen     mcp.TaskGeneration
	Tool    string     // the tool whose call started it
	Call    jsonrpc.ID // the id of that tools/call
	Conn    string
	Created time.Time // when its handle was captured
	Updated time.Time // when its latest status was captured
	Error   string    // the error of a failed task, when one was given
	Updates int       // the snapshots read: handle, tasks/get answers, notifications
	Seqs    []uint64  // its frames, in Seq order: the call, task requests and answers, notifications, questions
}

// open is a request awaiting its answer.
type open struct {
	method string
	tool   string // tools/call's tool
	task   string // the task a task request names
	seq    uint64
}

// reqKey names a request: its connection, direction and id.
type reqKey struct {
	conn string
	dir  capture.Dir
	id   string
}

// Book is what the UI's index learns for the view from the capture, one
// frame at a time, whether the view is open or not. Its memory is
// bounded.
type Book struct {
	tasks []*Task // oldest first
	byID  map[string]*Task
	bySeq map[uint64]*Task
	open  map[reqKey]open
	// changes counts what the book read that changed a task, so that a
	// view redraws only when needed.
	changes int
	// forgotten counts the tasks forgotten past maxTasks.
	forgotten int
}

// NewBook returns an empty book.
func NewBook() *Book {
	return &Book{byID: map[string]*Task{}, bySeq: map[uint64]*Task{}, open: map[reqKey]open{}}
}

// Tasks returns the tasks, oldest first. The caller must not change them.
func (b *Book) Tasks() []*Task { return b.tasks }

// Forgotten counts the oldest tasks the book forgot to stay bounded.
func (b *Book) Forgotten() int { return b.forgotten }

// Changes counts the changes the book has read.
func (b *Book) Changes() int { return b.changes }

// Linked returns the frames of the task that the frame with seq belongs
// to, in Seq order, or nil.
func (b *Book) Linked(seq uint64) []uint64 {
	if t := b.bySeq[seq]; t != nil {
		return t.Seqs
	}
	return nil
}

// Note reads one captured frame, in capture order.
func (b *Book) Note(f *capture.Frame) {
	m := f.Msg
	if m == nil {
		return
	}
	switch {
	case m.Kind() == jsonrpc.KindRequest:
		b.noteRequest(f)
	case m.IsResponse():
		b.noteResponse(f)
	case m.Method == mcp.MethodNotifyTasks || m.Method == mcp.MethodNotifyTaskStatus:
		if t, err := mcp.DecodeTask(m.Params); err == nil {
			b.update(f, t)
		}
	}
}

func (b *Book) noteRequest(f *capture.Frame) {
	m := f.Msg
	o := open{method: m.Method, seq: f.Seq}
	switch m.Method {
	case mcp.MethodToolsCall:
		o.tool = paramString(m.Params, "name")
	case mcp.MethodTasksGet, mcp.MethodTasksUpdate, mcp.MethodTasksCancel, mcp.MethodTasksResult:
		o.task = paramString(m.Params, "taskId")
	case mcp.MethodSubscriptionsListen:
		b.noteListen(f)
		return
	default:
		o.task = mcp.RelatedTaskID(param(m.Params, "_meta")) // a v1 question the task asks
		if o.task == "" {
			return
		}
	}
	if len(b.open) >= maxOpen {
		clear(b.open) // a flood of unanswered requests: start afresh
	}
	b.open[keyOf(f, f.Dir)] = o
	if t := b.byID[o.task]; t != nil {
		b.link(t, f.Seq)
	}
}

// maxListenTasks bounds the task ids of one subscriptions/listen request
// the book links.
const maxListenTasks = 64

// noteListen links a subscriptions/listen request to the known tasks its
// filter asks the pushed status of (notifications.taskIds), the first
// maxListenTasks of them: the notifications/tasks it brings are linked as
// they come (update).
func (b *Book) noteListen(f *capture.Frame) {
	var ids []json.RawMessage
	if json.Unmarshal(param(param(f.Msg.Params, "notifications"), "taskIds"), &ids) != nil {
		return
	}
	for _, raw := range ids[:min(len(ids), maxListenTasks)] {
		var id string
		if json.Unmarshal(raw, &id) == nil {
			if t := b.byID[id]; t != nil {
				b.link(t, f.Seq)
			}
		}
	}
}

// param returns the member of params named key (matched as
// encoding/json matches a field: the last of the names equal under case
// folding), as written. Every request passes here: the params, whose
// arguments may be megabytes, are scanned once and nothing else is
// decoded.
func param(params json.RawMessage, key string) json.RawMessage {
	members, _ := jsonrpc.ObjectMembers(params)
	var v json.RawMessage
	for _, mb := range members {
		if strings.EqualFold(mb.Key, key) {
			v = mb.Value
		}
	}
	return v
}

// paramString is the string member of params named key, "" when there is
// none: a member that is no string (or null) leaves the one before it.
func paramString(params json.RawMessage, key string) string {
	members, _ := jsonrpc.ObjectMembers(params)
	var s string
	for _, mb := range members {
		var v string
		if strings.EqualFold(mb.Key, key) && string(mb.Value) != "null" && json.Unmarshal(mb.Value, &v) == nil {
			s = v
		}
	}
	return s
}

func (b *Book) noteResponse(f *capture.Frame) {
	k := keyOf(f, opposite(f.Dir))
	o, ok := b.open[k]
	if !ok {
		return
	}
	delete(b.open, k)
	m := f.Msg
	if o.method == mcp.MethodToolsCall {
		if m.Result == nil {
			return
		}
		t, gen, err := mcp.DecodeTaskHandle(m.Result)
		if err != nil || gen == mcp.TasksNone {
			return
		}
		task := b.start(f, t, gen, o)
		b.link(task, o.seq)
		b.update(f, t)
		return
	}
	task := b.byID[o.task]
	if task == nil {
		return
	}
	b.link(task, f.Seq)
	if m.Result != nil && (o.method == mcp.MethodTasksGet || o.method == mcp.MethodTasksCancel) {
		if t, err := mcp.DecodeTask(m.Result); err == nil && t.TaskID == o.task {
			b.update(f, t)
		}
	}
	if o.method == mcp.MethodTasksResult {
		b.settle(f, task)
	}
}

// settle reads the answer of a v1 tasks/result, which the server gives
// only once the task has ended: a task no poll saw end is completed by a
// result and failed by an error answer.
func (b *Book) settle(f *capture.Frame, task *Task) {
	t := mcp.Task{TaskID: task.ID, Status: mcp.TaskCompleted}
	if e := f.Msg.Error; e != nil {
		t.Status, t.Error = mcp.TaskFailed, e
	}
	b.update(f, t)
}

// start records a new task from its handle.
func (b *Book) start(f *capture.Frame, t mcp.Task, gen mcp.TaskGeneration, o open) *Task {
	if old := b.byID[t.TaskID]; old != nil {
		return old
	}
	if len(b.tasks) >= maxTasks {
		b.forget(b.tasks[0])
		b.forgotten++
	}
	id := jsonrpc.ID{}
	if f.Msg.ID != nil {
		id = *f.Msg.ID
	}
	task := &Task{ID: t.TaskID, Gen: gen, Tool: o.tool, Call: id, Conn: f.Conn, Created: f.Time}
	b.tasks = append(b.tasks, task)
	b.byID[t.TaskID] = task
	return task
}

func (b *Book) forget(t *Task) {
	for _, s := range t.Seqs {
		delete(b.bySeq, s)
	}
	delete(b.byID, t.ID)
	b.tasks = slices.DeleteFunc(b.tasks, func(x *Task) bool { return x == t })
}

// update reads one snapshot of a known task. A task that ended stays as
// it ended: a later snapshot is counted, and changes nothing.
func (b *Book) update(f *capture.Frame, t mcp.Task) {
	task := b.byID[t.TaskID]
	if task == nil {
		return
	}
	b.link(task, f.Seq)
	task.Updates++
	if task.Status.Terminal() {
		return
	}
	task.Status, task.Message, task.Updated = t.Status, t.StatusMessage, f.Time
	if t.Error != nil {
		task.Error = t.Error.Message
	}
	b.changes++
}

// keptHead is how many of a task's first frames (its call and handle)
// stay linked when later ones make room for the newest.
const keptHead = 2

// link adds a frame to a task's frames; past maxFrames, the oldest after
// the first keptHead is forgotten, so that the task's end stays linked.
func (b *Book) link(t *Task, seq uint64) {
	if b.bySeq[seq] == t {
		return
	}
	if len(t.Seqs) >= maxFrames {
		delete(b.bySeq, t.Seqs[keptHead])
		t.Seqs = slices.Delete(t.Seqs, keptHead, keptHead+1)
	}
	i, _ := slices.BinarySearch(t.Seqs, seq)
	t.Seqs = slices.Insert(t.Seqs, i, seq)
	b.bySeq[seq] = t
	b.changes++
}

func keyOf(f *capture.Frame, dir capture.Dir) reqKey {
	k := reqKey{conn: f.Conn, dir: dir}
	if f.Msg.ID != nil {
		k.id = f.Msg.ID.Key()
	}
	return k
}

func opposite(d capture.Dir) capture.Dir {
	if d == capture.Out {
		return capture.In
	}
	return capture.Out
}
