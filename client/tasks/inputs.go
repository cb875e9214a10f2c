package tasks

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// MaxTaskInputs bounds the input requests of one input_required round
// that mcpscope answers: a task that asks more is refused, unasked,
// rather than drowning the user in questions.
const MaxTaskInputs = 64

// inputKeys names the keys of a task's input requests, sorted, or "".
func inputKeys(t mcp.Task) string {
	return strings.Join(slices.Sorted(maps.Keys(t.InputRequests)), "\x00")
}

// update answers a v2 task's input requests, whose keys are keys, with
// tasks/update. A round whose keys were answered last is not answered
// again while the task stays input_required (the server has not read the
// update yet); a task that asks more than client.MaxInputRounds rounds
// is refused.
func (f *follower) update(ctx context.Context, t mcp.Task, keys string) error {
	if f.rounds >= client.MaxInputRounds {
		return f.refuse(ctx, fmt.Sprintf("task %s still asked for input after %d rounds", f.id, client.MaxInputRounds))
	}
	if n := len(t.InputRequests); n > MaxTaskInputs {
		return f.refuse(ctx, fmt.Sprintf("task %s asked %d input requests in one round, more than the %d mcpscope answers", f.id, n, MaxTaskInputs))
	}
	answers, err := f.s.AnswerInputs(ctx, "task "+f.id, t.InputRequests, f.o.Call)
	if err != nil {
		f.cancel(ctx)
		return err
	}
	if _, err := f.s.Call(ctx, mcp.MethodTasksUpdate, mcp.TaskUpdateParams{TaskID: f.id, InputResponses: answers}); err != nil {
		return err
	}
	f.asked = keys
	f.rounds++
	f.dog.alive()
	return nil
}
