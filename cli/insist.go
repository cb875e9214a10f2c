package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// insistFlag is the flag of `mcpscope call` that sends a tools/call of a
// tool whose x-mcp-header annotations are invalid all the same.
const insistFlag = "insist"

// callOrInsist runs a tools/call, or any other request, as r.call does. A tool
// whose x-mcp-header annotations are invalid (2026-07-28 over HTTP) is
// refused before sending, with an error naming why and --insist, unless
// insist is set: then it goes out without its Mcp-Param headers, and
// stderr says so.
func (r *run) callOrInsist(ctx context.Context, method string, params json.RawMessage, insist bool) ([]byte, error) {
	tool := ""
	if method == mcp.MethodToolsCall {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(params, &p)
		tool = p.Name
	}
	if insist && tool != "" {
		r.session.InsistOnTool(tool)
	}
	res, err := r.call(ctx, method, params)
	var invalid *client.InvalidToolHeadersError
	if errors.As(err, &invalid) {
		return nil, fmt.Errorf("%s was not sent: %w; --%s sends it anyway, without its Mcp-Param headers", method, invalid, insistFlag)
	}
	if bad := r.session.InvalidToolHeaders(tool); err == nil && insist && bad != nil {
		r.io.diag.Println(fmt.Sprintf("warning: %v; sent anyway (--%s), without its Mcp-Param headers", bad, insistFlag))
	}
	return res, err
}

// warnInvalidToolHeaders says, for each tool of a listing whose
// x-mcp-header annotations the session found invalid, why and that
// `mcpscope call` refuses it unless --insist.
func (r *run) warnInvalidToolHeaders(tools []json.RawMessage) {
	for _, raw := range tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		if bad := r.session.InvalidToolHeaders(t.Name); bad != nil {
			r.io.diag.Println(fmt.Sprintf("warning: %v; mcpscope call refuses it unless --%s", bad, insistFlag))
		}
	}
}
