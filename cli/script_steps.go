package cli

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// scriptSteps puts the steps of a run in order: the one the command line
// names with --tool (and --args) first, then the answers file's steps.
// args without a tool is a usage error, and so is a run with no step.
func scriptSteps(tool, args string, file []answers.Step) ([]answers.Step, error) {
	var steps []answers.Step
	switch {
	case tool != "":
		st := answers.Step{Tool: tool}
		if args != "" {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(args), &obj); err != nil || obj == nil {
				return nil, usagef("--args must be a JSON object, got %s", termtext.Ellipsis(args, 40))
			}
			st.Arguments = json.RawMessage(args)
		}
		if err := st.Validate(); err != nil {
			return nil, usagef("--tool %s %w", quote(tool), err)
		}
		steps = append(steps, st)
	case args != "":
		return nil, usagef("--args needs --tool NAME: the arguments are the tool's")
	}
	steps = append(steps, file...)
	if len(steps) == 0 {
		return nil, usagef("nothing to run: give --tool NAME, or a steps: list in the --answers file")
	}
	return steps, nil
}

// loadAnswers reads the answers file at path; a file that cannot be read or
// is not valid is a usage error.
func loadAnswers(path string) (*answers.File, error) {
	a, err := answers.Load(path)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return a, nil
}
