package cli

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// taskSupport holds the tools' v1 execution.taskSupport by name, from a
// listing the run made anyway, or from one made after a tool's refusal;
// byTool is nil until a listing is read.
type taskSupport struct {
	byTool map[string]string
}

// listed says whether a listing was read.
func (ts *taskSupport) listed() bool { return ts.byTool != nil }

// learn reads the tools of a listing.
func (ts *taskSupport) learn(tools []json.RawMessage) {
	ts.byTool = map[string]string{}
	for _, raw := range tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) == nil {
			ts.byTool[t.Name] = mcp.ToolTaskSupport(raw)
		}
	}
}

// taskParams adds the v1 `task` member to a tools/call whose tool, as a
// listing of the run says, requires task execution on a server that
// declares it (tasks.WantsV1). Nothing is listed for it: other params are
// returned as they are.
func (r *run) taskParams(params any) any {
	raw, ok := params.(json.RawMessage)
	if !ok || !r.taskTools.listed() || !tasks.ServerTakesV1(r.session.ServerCapabilities()) {
		return params
	}
	if !tasks.WantsV1(r.taskTools.byTool[calledTool(raw)]) {
		return params
	}
	if with, err := tasks.WithV1Request(raw); err == nil {
		return with
	}
	return params
}

// retryAsTask returns the params of a tools/call to send again as a v1
// task: the call was refused (isError) by a server that declares v1 task
// execution, and a listing (made now, once a run) says the tool requires
// it, so the tool did not run. ok is false otherwise.
func (r *run) retryAsTask(ctx context.Context, params any, res json.RawMessage) (any, bool) {
	raw, ok := params.(json.RawMessage)
	var refused struct {
		IsError bool `json:"isError"`
	}
	if !ok || json.Unmarshal(res, &refused) != nil || !refused.IsError || !tasks.ServerTakesV1(r.session.ServerCapabilities()) {
		return nil, false
	}
	var p struct {
		Task json.RawMessage `json:"task"`
	}
	if json.Unmarshal(raw, &p) != nil || len(p.Task) > 0 {
		return nil, false // it asked for a task already
	}
	if !r.taskTools.listed() {
		listed, _ := r.session.ListAll(ctx, mcp.MethodToolsList, "tools", client.OutputSchemaListing())
		r.taskTools.learn(listed)
	}
	name := calledTool(raw)
	if !tasks.WantsV1(r.taskTools.byTool[name]) {
		return nil, false
	}
	with, err := tasks.WithV1Request(raw)
	if err != nil {
		return nil, false
	}
	r.io.diag.Println("tool " + termtext.Quote(name) + " runs only as a task (execution.taskSupport: required): calling it again as one")
	return with, true
}

// calledTool is the name a tools/call's params give.
func calledTool(params json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Name
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
