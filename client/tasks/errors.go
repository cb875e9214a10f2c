package tasks

import (
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TaskError says a task ended failed or cancelled. It wraps the error the
// server gave (a v2 failed task's inlined error, a v1 tasks/result error
// answer), or one made from the task's status message.
type TaskError struct {
	TaskID  string
	Status  mcp.TaskStatus
	Message string
	Err     *client.RPCError
}

func (e *TaskError) Error() string {
	return fmt.Sprintf("task %s %s: %s", e.TaskID, e.Status, e.Err.Err.Message)
}

// Unwrap returns the server's error.
func (e *TaskError) Unwrap() error { return e.Err }

// ended is the error of a task that ended failed or cancelled.
func ended(t mcp.Task) *TaskError {
	rpc := t.Error
	if rpc == nil {
		msg := t.StatusMessage
		if msg == "" {
			msg = "the server gave no reason"
		}
		rpc = &jsonrpc.Error{Code: mcp.CodeInternalError, Message: msg}
	}
	return &TaskError{TaskID: t.TaskID, Status: t.Status, Message: t.StatusMessage, Err: &client.RPCError{Method: mcp.MethodToolsCall, Err: rpc}}
}
