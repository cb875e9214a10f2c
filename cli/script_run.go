package cli

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto/mcp"
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
		start := mcp.InteractionStartParams{ToolName: st.Tool, InitialParams: st.ToolArguments()}
		res, err := s.walker(r).Interact(ctx, r.session, start)
		if !errors.Is(err, answers.ErrToolNotInteractive) {
			return res, err
		}
	}
	params, err := st.ToolsCallParams()
	if err != nil {
		return nil, err
	}
	return r.callJudged(ctx, mcp.MethodToolsCall, params, s.insist)
}

// isInteractive asks the server once per run whether it runs interactive
// sessions; a server that does not know the question is not interactive.
func (s *script) isInteractive(ctx context.Context, r *run) (bool, error) {
	if !s.discovered {
		caps, err := r.session.InteractiveCapabilities(ctx)
		if err != nil {
			return false, err
		}
		s.discovered, s.interactive = true, caps.Interactive
	}
	return s.interactive, nil
}

// walker walks the interactive sessions of the run: a tool step runs as
// one, interaction.start then each prompt answered from the file, until
// interaction.complete; waiting for the server is bounded by --timeout,
// like a request, and a whole session by --max-time.
func (s *script) walker(r *run) *answers.Walker {
	w := &answers.Walker{Prompts: &s.prompts, Timeout: r.flags.timeout, MaxTime: r.flags.maxTime, Println: r.io.diag.Println}
	if r.flags.progress {
		w.Progress = formatProgress
	}
	return w
}
