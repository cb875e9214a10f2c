package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// benchCall is what bench sends: a tool with the words of its arguments,
// one method with its params, or the requests of a recording.
type benchCall struct {
	tool      string   // tool NAME …: the tool
	words     []string // … and its KEY=VALUE words
	requests  []against.Request
	recording string // the file the requests come from
}

// callOf reads what to send from the words before the TARGET and
// --recording.
func (b *benchFlags) callOf(positional []string, stdin io.Reader) (benchCall, error) {
	if b.recording != "" {
		if len(positional) > 0 {
			return benchCall{}, usagef("--recording sends the recording's requests: %q before the TARGET is one too many", positional[0])
		}
		s, err := against.Read(b.recording)
		if err != nil {
			return benchCall{}, withExit(ExitUsage, err)
		}
		reqs := s.Requests()
		if len(reqs) == 0 {
			return benchCall{}, usagef("%s holds no request to send again", b.recording)
		}
		return benchCall{requests: reqs, recording: b.recording}, nil
	}
	switch {
	case len(positional) == 0:
		return benchCall{}, usagef("missing the call: mcpscope bench (tool NAME [K=V…] | METHOD [PARAMS_JSON] | --recording FILE) TARGET")
	case positional[0] == "tool":
		if len(positional) < 2 {
			return benchCall{}, usagef("missing the tool's NAME: mcpscope bench tool NAME [K=V…] TARGET")
		}
		return benchCall{tool: positional[1], words: positional[2:]}, nil
	case len(positional) > 2:
		return benchCall{}, usagef("too many arguments before the TARGET: want METHOD [PARAMS_JSON], got %d arguments", len(positional))
	}
	req := against.Request{Method: positional[0]}
	if len(positional) == 2 {
		params, err := parseParams(positional[1], stdin)
		if err != nil {
			return benchCall{}, err
		}
		req.Params = compactJSON(params) // once a run: each call sends them as they are
	}
	return benchCall{requests: []against.Request{req}}, nil
}

// label names the call in the summary: "tools/call greet", "ping",
// "recording FILE".
func (c benchCall) label() string {
	switch {
	case c.tool != "":
		return mcp.MethodToolsCall + " " + c.tool
	case c.recording != "":
		return "recording " + c.recording
	}
	req := c.requests[0]
	if name := toolName(req); name != "" {
		return req.Method + " " + name
	}
	return req.Method
}

// prepare turns the call into one load.Call on r's session: a tool's
// words become its arguments (one tools/list first), and each tools/call
// is judged by its tool's outputSchema, listed once before the run.
func (c benchCall) prepare(ctx context.Context, r *run, wire *wireTimes) (load.Call, error) {
	reqs := c.requests
	if c.tool != "" {
		req, err := c.toolRequest(ctx, r)
		if err != nil {
			return nil, err
		}
		reqs = []against.Request{req}
	}
	sends := make([]load.Call, len(reqs))
	for i, req := range reqs {
		sends[i] = load.SessionCall(r.session, r.loadRequest(ctx, req), wire)
	}
	if len(sends) == 1 {
		return sends[0], nil
	}
	var next atomic.Uint64
	return func(ctx context.Context) error {
		return sends[(next.Add(1)-1)%uint64(len(sends))](ctx)
	}, nil
}

// toolRequest lists the server's tools and turns the words into the
// arguments of a tools/call of the tool, typed by its inputSchema, as
// mcpscope tool does.
func (c benchCall) toolRequest(ctx context.Context, r *run) (against.Request, error) {
	params, err := r.toolParams(ctx, c.tool, c.words, os.ReadFile)
	if err != nil {
		return against.Request{}, err
	}
	return against.Request{Method: mcp.MethodToolsCall, Params: params}, nil
}

// toolName is the name a tools/call request calls, or "".
func toolName(req against.Request) string {
	if req.Method != mcp.MethodToolsCall {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(req.Params, &p)
	return p.Name
}

// loadRequest is req as the run repeats it: a tools/call names its tool
// and the tool's outputSchema, listed once before the run.
func (r *run) loadRequest(ctx context.Context, req against.Request) load.Request {
	lr := load.Request{Method: req.Method, Params: req.Params, Options: r.requestOptions()}
	if name := toolName(req); name != "" {
		lr.Tool, lr.OutputSchema = name, r.outputSchema(ctx, name)
	}
	return lr
}
