package cli

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// taskSupport holds the tools' v1 execution.taskSupport by name, listed
// once a run, and only from a legacy server that declares v1 tasks.
type taskSupport struct {
	listed bool
	byTool map[string]string
}

// taskParams adds the v1 `task` member to a tools/call whose tool requires
// task execution on a server that declares it (tasks.WantsV1). Other
// params are returned as they are.
func (r *run) taskParams(ctx context.Context, params any) any {
	raw, ok := params.(json.RawMessage)
	if !ok || !tasks.ServerTakesV1(r.session.ServerCapabilities()) {
		return params
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(raw, &p) != nil || !tasks.WantsV1(r.toolTaskSupport(ctx, p.Name)) {
		return params
	}
	if with, err := tasks.WithV1Request(raw); err == nil {
		return with
	}
	return params
}

// toolTaskSupport is the execution.taskSupport the server lists for tool.
func (r *run) toolTaskSupport(ctx context.Context, tool string) string {
	ts := &r.taskTools
	if !ts.listed {
		ts.listed = true
		ts.byTool = map[string]string{}
		listed, _ := r.session.ListAll(ctx, mcp.MethodToolsList, "tools", client.OutputSchemaListing())
		for _, raw := range listed {
			var t struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(raw, &t) == nil {
				ts.byTool[t.Name] = mcp.ToolTaskSupport(raw)
			}
		}
	}
	return ts.byTool[tool]
}

// followTask follows a tools/call answered with a task handle to its end
// (client/tasks), each status change a line on stderr, within --timeout
// of each change and --max-time of the call's start, and returns the
// task's result. Any other result is returned as it is.
func (r *run) followTask(ctx context.Context, res json.RawMessage, id jsonrpc.ID, started time.Time) (json.RawMessage, error) {
	if _, gen, _ := mcp.DecodeTaskHandle(res); gen == mcp.TasksNone {
		return res, nil
	}
	return tasks.Follow(ctx, r.session, res, tasks.Options{
		Timeout:  r.flags.timeout,
		MaxTime:  r.flags.maxTime,
		Started:  started,
		Call:     id,
		OnStatus: func(t mcp.Task) { r.io.diag.Println(tasks.StatusLine(t)) },
	})
}
