package cli

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// outputSchemas are the outputSchemas of the server's tools by name,
// listed once per run, when a tools/call result first needs one.
type outputSchemas struct {
	listed bool
	byTool map[string]json.RawMessage
}

// toolFailure judges the result of a tools/call with params: nil when it
// is a success as far as can be told, the failure otherwise (isError, or
// structuredContent its tool's outputSchema lacks or refuses). The
// outputSchema comes from one tools/list of the run, made only when the
// result is not already an isError and the server declares tools; a
// listing that fails, or a tool it does not hold, judges isError only.
func (r *run) toolFailure(ctx context.Context, params json.RawMessage, result []byte) *client.ToolFailure {
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(params, &p) != nil || p.Name == "" {
		return nil
	}
	r.tool = p.Name
	if f := client.CheckToolResult(p.Name, result, nil); f != nil {
		return f
	}
	return client.CheckToolResult(p.Name, result, r.outputSchema(ctx, p.Name))
}

// outputSchema is the outputSchema the server lists for tool, or nil.
func (r *run) outputSchema(ctx context.Context, tool string) json.RawMessage {
	s := &r.schemas
	if !s.listed {
		s.listed = true
		if client.Advertised(r.session.ServerCapabilities())["tools"] {
			// A listing cut short keeps the pages it got: session.ListAll
			// follows nextCursor, bounded, and stops on a repeated cursor.
			tools, _ := r.session.ListAll(ctx, mcp.MethodToolsList, "tools", client.OutputSchemaListing())
			s.byTool = client.OutputSchemas(tools)
		}
	}
	return s.byTool[tool]
}

// callJudged sends a request as callOrInsist does; a tools/call whose
// result is a failure returns the result and the *client.ToolFailure.
func (r *run) callJudged(ctx context.Context, method string, params json.RawMessage, insist bool) ([]byte, error) {
	res, err := r.callOrInsist(ctx, method, params, insist)
	if err != nil || method != mcp.MethodToolsCall {
		return res, err
	}
	if f := r.toolFailure(ctx, params, res); f != nil {
		return res, f
	}
	return res, nil
}

// emitJudged prints the result of callJudged and returns its failure: a
// tools/call whose result is a failure is printed all the same, and ends
// the run with exit 1.
func (r *run) emitJudged(ctx context.Context, res []byte, err error) error {
	var failed *client.ToolFailure
	if err != nil && !errors.As(err, &failed) {
		return err
	}
	if werr := r.emit(ctx, res); werr != nil {
		return werr
	}
	return err
}
