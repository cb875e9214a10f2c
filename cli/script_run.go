package cli

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto"
)

// script is one run of `mcpscope script`: its steps and the prompt
// answers they share.
type script struct {
	steps   []answers.Step
	prompts answers.Prompts

	discovered  bool // the server's interactivity is known
	interactive bool
	// insist sends tools/call steps of tools whose x-mcp-header
	// annotations are invalid all the same (--insist).
	insist bool
}

// run does every step in order, printing each result as soon as it is
// there; the first failing step ends the run, a tools/call whose result is
// a failure once its result is printed.
func (s *script) run(ctx context.Context, r *run) error {
	for _, st := range s.steps {
		res, err := s.step(ctx, r, st)
		if err := r.emitJudged(ctx, res, err); err != nil {
			return err
		}
	}
	return nil
}

// step does one step and returns the JSON it prints.
func (s *script) step(ctx context.Context, r *run, st answers.Step) (json.RawMessage, error) {
	if st.Method != "" {
		var params json.RawMessage
		if answers.IsPresent(st.Params) {
			params = st.Params
		}
		return r.callJudged(ctx, st.Method, params, s.insist)
	}
	interactive, err := s.isInteractive(ctx, r)
	if err != nil {
		return nil, err
	}
	if interactive {
		res, err := s.interact(ctx, r, st)
		if !errors.Is(err, errToolNotInteractive) {
			return res, err
		}
	}
	params, err := st.ToolsCallParams()
	if err != nil {
		return nil, err
	}
	return r.callJudged(ctx, proto.MethodToolsCall, params, s.insist)
}
