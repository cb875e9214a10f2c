package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Request is the request a run repeats: a method and its params as the
// session sends them (it adds its own _meta to each). A tools/call names
// its Tool, whose results are judged as client.CheckToolResult judges
// them, by OutputSchema (nil when the tool has none) and isError.
type Request struct {
	Method       string
	Params       json.RawMessage // a JSON object, or nil for none
	Tool         string
	OutputSchema json.RawMessage
	// Options are added to each call (the command's --meta, say).
	Options []client.CallOption
}

// WireClock times requests on the wire, from the frame that carried one
// out to the frame that brought its answer in.
type WireClock interface {
	// Rounds returns, and forgets, the wire time of the requests ids
	// together; false when one of their answers was not seen.
	Rounds(ids []jsonrpc.ID) (time.Duration, bool)
}

// SessionCall is the Call that sends req on s once. Its latency is the
// wire time of its rounds (an input_required retry is one more round) when
// wire is given and saw them; otherwise from just before the session
// sends to the moment the session hands the answer back (Answered). A
// tool's result is judged after the latency is taken, its outputSchema
// compiled once for the run. When the run stopped because the server
// asked a question no answer covers, one call fails with that question's
// *answers.UnansweredError; the others it cut off are unfinished.
func SessionCall(s *client.Session, req Request, wire WireClock) Call {
	var params any
	if len(req.Params) > 0 {
		params = req.Params
	}
	judge := req.judge()
	var asked atomic.Bool // the unanswered question was counted once
	return func(ctx context.Context) error {
		var ids []jsonrpc.ID
		opts := req.Options
		if wire != nil {
			opts = append(opts[:len(opts):len(opts)], // a copy of its own: calls run at once
				client.WithRounds(func(_ int, id jsonrpc.ID) { ids = append(ids, id) }))
		}
		res, err := s.Call(ctx, req.Method, params, opts...)
		Answered(ctx)
		if wire != nil {
			if took, ok := wire.Rounds(ids); ok {
				Took(ctx, took)
			}
		}
		if err != nil {
			var q *answers.UnansweredError
			if cause := context.Cause(ctx); errors.As(cause, &q) && asked.CompareAndSwap(false, true) {
				return q
			}
			return err
		}
		if judge == nil {
			return nil
		}
		return judge(res)
	}
}

// judge returns how the results of req are judged: a tools/call's by its
// tool's outputSchema and isError; nil for any other method, whose
// answer is a success. A result that cannot hold isError is passed
// without decoding when there is no outputSchema to check.
func (req Request) judge() func(json.RawMessage) error {
	if req.Tool == "" {
		return nil
	}
	check := client.ToolResultChecker(req.Tool, req.OutputSchema)
	return func(res json.RawMessage) error {
		if req.OutputSchema == nil && !mayCarryIsError(res) {
			return nil // the judgement would be a success: spare decoding it
		}
		if f := check(res); f != nil {
			return f
		}
		return nil
	}
}

// mayCarryIsError reports whether a tool result may hold an isError
// member: only when its bytes spell it, or hold an escape that could
// spell a member name otherwise.
func mayCarryIsError(res []byte) bool {
	return bytes.Contains(res, []byte("isError")) || bytes.Contains(res, []byte(`\u`))
}
