package tasks

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// watchdog ends a follow that outlives its limits: the idle limit,
// restarted by each sign of life, and the max time.
type watchdog struct {
	life chan struct{}
	done chan struct{}
}

// startWatchdog starts the timers of o; expire runs once, when one runs
// out, with whether it was the max time and the limit. Each fires its
// reserve early: the tasks/cancel that follows fits in the limit.
func startWatchdog(o Options, expire func(maxTime bool, after time.Duration)) *watchdog {
	w := &watchdog{life: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		var idle, hard <-chan time.Time
		var idleT *time.Timer
		idleAfter := o.Timeout - reserve(o.Timeout)
		if o.Timeout > 0 {
			idleT = time.NewTimer(idleAfter)
			defer idleT.Stop()
			idle = idleT.C
		}
		if o.MaxTime > 0 {
			hardT := time.NewTimer(time.Until(o.Started.Add(o.MaxTime - reserve(o.MaxTime))))
			defer hardT.Stop()
			hard = hardT.C
		}
		for {
			select {
			case <-w.done:
				return
			case <-w.life:
				if idleT != nil {
					idleT.Reset(idleAfter)
				}
			case <-idle:
				expire(false, o.Timeout)
				return
			case <-hard:
				expire(true, o.MaxTime)
				return
			}
		}
	}()
	return w
}

// alive restarts the idle limit.
func (w *watchdog) alive() {
	select {
	case w.life <- struct{}{}:
	default:
	}
}

func (w *watchdog) stop() { close(w.done) }

// expired is the watchdog's end of the follow: a *client.TimeoutError of
// the tools/call, saying the task is cancelled.
func (f *follower) expired(stop context.CancelCauseFunc) func(bool, time.Duration) {
	return func(maxTime bool, after time.Duration) {
		f.grace.Store(int64(reserve(after)))
		then := "task " + f.id + " showed no status change; sent tasks/cancel"
		if maxTime {
			then = "task " + f.id + " was still running; sent tasks/cancel"
		}
		stop(&client.TimeoutError{Method: mcp.MethodToolsCall, ID: f.o.Call, After: after.String(), MaxTime: maxTime, Then: then})
	}
}

// subscribe passes the status notifications of the followed task, of
// either generation, to the returned channel. A notification that finds
// the channel full is dropped: the next poll catches up. A progress
// notification of the call the task answers (its progressToken is the
// call's id) is a sign of life.
func (f *follower) subscribe() (<-chan json.RawMessage, func()) {
	ch := make(chan json.RawMessage, 16)
	call := f.o.Call.Key()
	unsubscribe := f.s.Subscribe(func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyProgress {
			var p mcp.ProgressNotificationParams
			if !f.o.Call.IsNull() && json.Unmarshal(m.Params, &p) == nil && p.ProgressToken.Key() == call {
				f.dog.alive()
			}
			return
		}
		if m.Method != mcp.MethodNotifyTasks && m.Method != mcp.MethodNotifyTaskStatus {
			return
		}
		var p mcp.TaskParams
		if json.Unmarshal(m.Params, &p) != nil || p.TaskID != f.id {
			return
		}
		select {
		case ch <- m.Params:
		default:
		}
	})
	return ch, unsubscribe
}
