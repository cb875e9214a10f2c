// Package tasks follows a tools/call answered with a task handle (the
// Tasks extension) to its end, in both wire generations: v2 (SEP-2663,
// 2026-07-28) polls tasks/get, which inlines the result, and answers
// input_required through tasks/update; v1 (2025-11-25) polls tasks/get for
// the status and fetches the result, and the server's queued questions,
// with tasks/result. Status notifications of either generation are shown
// as they come; a v2 follow on a 2026-07-28 session asks for them with a
// subscriptions/listen of its own (notifications.taskIds). The follow
// ends within an idle limit (each status change is a sign of life) and a
// max time; a follow that gives up cancels the task with tasks/cancel.
package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Options bound and report one follow.
type Options struct {
	// Timeout ends the follow when the task shows no status change for
	// this long (0: no idle limit).
	Timeout time.Duration
	// MaxTime ends the follow this long after Started, whatever the task
	// says (0: no limit).
	MaxTime time.Duration
	// Started is when the call began (zero: when Follow is called).
	Started time.Time
	// Call is the id of the tools/call the task answers; questions the
	// task asks name it as their origin, and timeouts report it.
	Call jsonrpc.ID
	// OnStatus gets every status change of the task, the handle first,
	// from the follower's goroutine.
	OnStatus func(mcp.Task)
}

// CancelGrace bounds the wait for the answer to the tasks/cancel a follow
// that gives up sends. A follow ended by a limit takes that wait out of
// the limit (at most a tenth of it), so that the whole stays within it.
const CancelGrace = time.Second

// ResultGrace bounds the wait for a v1 tasks/result once tasks/get or a
// notification said the task ended: a server that says so and keeps the
// result back breaks the extension.
const ResultGrace = 2 * time.Second

// reserve is the part of limit kept for the tasks/cancel that ends it.
func reserve(limit time.Duration) time.Duration { return min(CancelGrace, limit/10) }

// Follow follows the task that handle (a tools/call result) names to its
// end and returns the task's CallToolResult. A result that is no task
// handle is returned as it is. A failed or cancelled task is a *TaskError
// (it wraps a *client.RPCError); a follow that runs out of time is a
// *client.TimeoutError, after tasks/cancel; a status the extension does
// not define, or a completed task without its result, is a
// *client.ProtocolError.
func Follow(ctx context.Context, s *client.Session, handle json.RawMessage, o Options) (json.RawMessage, error) {
	task, gen, err := mcp.DecodeTaskHandle(handle)
	if err != nil {
		return nil, &client.ProtocolError{Msg: fmt.Sprintf("tools/call answered with a malformed task handle: %v", err)}
	}
	if gen == mcp.TasksNone {
		return handle, nil
	}
	if o.Started.IsZero() {
		o.Started = time.Now()
	}
	f := &follower{s: s, o: o, gen: gen, id: task.TaskID, interval: task.Interval()}
	f.grace.Store(int64(CancelGrace))
	return f.run(ctx, task)
}

// follower is the state of one follow.
type follower struct {
	s        *client.Session
	o        Options
	gen      mcp.TaskGeneration
	id       string
	interval time.Duration
	last     mcp.Task
	asked    string // the keys of the input_required round answered last
	rounds   int    // the input_required rounds answered
	gaveUp   bool   // tasks/cancel was sent
	ended    <-chan time.Time
	dog      *watchdog
	// grace bounds the wait for tasks/cancel's answer: CancelGrace, or
	// the reserve of the limit that ended the follow (set before it ends).
	grace atomic.Int64
}

// outcome is the end of a v1 tasks/result.
type outcome struct {
	result json.RawMessage
	err    error
}

func (f *follower) run(ctx context.Context, handle mcp.Task) (json.RawMessage, error) {
	var fetching sync.WaitGroup // the v1 tasks/result, ended by stop before the follow returns
	defer fetching.Wait()
	lctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	f.dog = startWatchdog(f.o, f.expired(stop))
	defer f.dog.stop()
	notes, unsubscribe := f.subscribe()
	defer unsubscribe()

	var results chan outcome
	if f.gen == mcp.TasksV1 {
		results = make(chan outcome, 1)
		fetching.Go(func() {
			res, err := f.s.Call(lctx, mcp.MethodTasksResult, mcp.TaskParams{TaskID: f.id}, client.WithTimeout(f.resultLimit()))
			results <- outcome{res, err}
		})
	}
	if res, done, err := f.note(lctx, handle); done || err != nil {
		return f.finish(ctx, lctx, res, err)
	}
	unlisten := f.listen(lctx) // subscribed already: no pushed status is missed
	defer unlisten()
	poll := time.NewTimer(f.interval)
	defer poll.Stop()
	for {
		var snap json.RawMessage
		noted := false
		select {
		case <-lctx.Done():
			return f.finish(ctx, lctx, nil, lctx.Err())
		case out := <-results:
			f.settle(out)
			return f.finish(ctx, lctx, out.result, f.resultErr(out.err))
		case <-f.ended:
			return f.finish(ctx, lctx, nil, &client.ProtocolError{Msg: fmt.Sprintf(
				"task %s is %s, but its tasks/result gave no answer within %s", f.id, f.last.Status, ResultGrace)})
		case snap = <-notes:
			noted = true
		case <-poll.C:
			var err error
			if snap, err = f.s.Call(lctx, mcp.MethodTasksGet, mcp.TaskParams{TaskID: f.id}); err != nil {
				return f.finish(ctx, lctx, nil, err)
			}
			poll.Reset(f.interval)
		}
		task, err := mcp.DecodeTask(snap)
		if err == nil && task.TaskID != f.id {
			err = fmt.Errorf("it names task %q", task.TaskID)
		}
		if err != nil {
			return f.finish(ctx, lctx, nil, f.refuse(ctx, fmt.Sprintf("task %s: a snapshot of it is malformed: %v", f.id, err)))
		}
		if f.gen == mcp.TasksV2 && task.Status == mcp.TaskCompleted && len(task.Result) == 0 && noted {
			poll.Reset(0) // a notification may leave the result out: tasks/get inlines it
			continue
		}
		if res, done, err := f.note(lctx, task); done || err != nil {
			return f.finish(ctx, lctx, res, err)
		}
		if f.last.Status.Terminal() { // v1: tasks/result brings the outcome; polling is over
			poll.Stop()
		}
	}
}

// settle reports the terminal status a v1 tasks/result implies when it
// answers before any poll saw the task end: the request blocks until
// the task is terminal, so its result means completed and its error
// means failed. An answer cut short by the follow's own limits or its
// caller implies nothing.
func (f *follower) settle(out outcome) {
	if f.last.Status.Terminal() || f.o.OnStatus == nil {
		return
	}
	t := mcp.Task{TaskID: f.id, Status: mcp.TaskCompleted}
	if out.err != nil {
		if !errors.As(out.err, new(*client.RPCError)) {
			return
		}
		t.Status = mcp.TaskFailed
	}
	f.last = t
	f.o.OnStatus(t)
}

// resultLimit is the limit of the v1 tasks/result request, which blocks
// until the task ends: the follow's own limits end it sooner.
func (f *follower) resultLimit() time.Duration {
	if f.o.MaxTime > 0 {
		return f.o.MaxTime
	}
	return 24 * time.Hour
}

// note reads one snapshot: a status change is reported and is a sign of
// life; a v2 terminal snapshot ends the follow; v2 input requests are
// answered with tasks/update.
func (f *follower) note(ctx context.Context, t mcp.Task) (json.RawMessage, bool, error) {
	if !t.Status.Known() {
		return nil, false, f.refuse(ctx, fmt.Sprintf("task %s reports status %q, which the Tasks extension does not define", f.id, t.Status))
	}
	if f.last.Status.Terminal() {
		return nil, false, nil // v1, waiting for tasks/result: an ended task's later snapshots change nothing
	}
	if t.PollIntervalMs != nil || t.PollInterval != nil {
		f.interval = t.Interval()
	}
	if t.Status != f.last.Status || t.StatusMessage != f.last.StatusMessage {
		if t.Status != mcp.TaskInputRequired {
			f.asked = ""
		}
		f.last = t
		if t.Status.Terminal() && f.gen == mcp.TasksV1 {
			f.ended = time.After(ResultGrace)
		}
		f.dog.alive()
		if f.o.OnStatus != nil {
			f.o.OnStatus(t)
		}
	}
	if f.gen != mcp.TasksV2 {
		return nil, false, nil // v1: tasks/result brings the outcome
	}
	switch t.Status {
	case mcp.TaskCompleted:
		if len(t.Result) == 0 {
			return nil, true, &client.ProtocolError{Msg: fmt.Sprintf("task %s completed without its result", f.id)}
		}
		return t.Result, true, nil
	case mcp.TaskFailed, mcp.TaskCancelled:
		return nil, true, ended(t)
	case mcp.TaskInputRequired:
		if keys := inputKeys(t); keys != "" && keys != f.asked {
			return nil, false, f.update(ctx, t, keys)
		}
	}
	return nil, false, nil
}

// refuse cancels the task of a server that broke the extension and
// returns the protocol error.
func (f *follower) refuse(ctx context.Context, msg string) error {
	f.cancel(ctx)
	return &client.ProtocolError{Msg: msg}
}

// resultErr reads the end of a v1 tasks/result: an error answer names the
// task's failure.
func (f *follower) resultErr(err error) error {
	var rpc *client.RPCError
	if errors.As(err, &rpc) {
		return &TaskError{TaskID: f.id, Status: mcp.TaskFailed, Err: rpc}
	}
	return err
}

// finish ends the follow: a follow that gives up a task still running —
// stopped by its limits or by its caller, or ended by an error of its
// own — cancels the task. Its listen is closed after that (run's defer),
// so that closing it takes nothing of the time tasks/cancel has.
func (f *follower) finish(ctx, lctx context.Context, res json.RawMessage, err error) (json.RawMessage, error) {
	if err == nil {
		return res, nil
	}
	if lctx.Err() != nil {
		if !f.last.Status.Terminal() {
			f.cancel(ctx)
		}
		return nil, context.Cause(lctx)
	}
	if !f.gaveUp && !f.last.Status.Terminal() && !errors.As(err, new(*TaskError)) {
		f.cancel(ctx)
	}
	return nil, err
}

// cancel tells the server to cancel the task, waiting at most f.grace
// for its answer, and never past the max time, even when ctx is done.
func (f *follower) cancel(ctx context.Context) {
	f.gaveUp = true
	grace := time.Duration(f.grace.Load())
	if f.o.MaxTime > 0 {
		grace = max(min(grace, time.Until(f.o.Started.Add(f.o.MaxTime))), time.Millisecond)
	}
	cctx, release := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer release()
	_, _ = f.s.Call(cctx, mcp.MethodTasksCancel, mcp.TaskParams{TaskID: f.id}, client.WithTimeout(grace))
}
