package demo

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// wizardStep is one question of a wizard, declared as data.
type wizardStep struct {
	// Key names the answer in accumulatedData and in tools/call arguments.
	Key string
	// Prompt is the question as sent (before Adjust and defaults).
	Prompt mcp.InteractionPrompt
	// Hint, when set, is the suggestion sent with any refusal of the step.
	Hint string
	// Check is the server's own rule, applied after the prompt's rules.
	Check func(v json.RawMessage, now time.Time) *refusal
	// Adjust fills in what depends on the answers so far or on the day.
	Adjust func(p *mcp.InteractionPrompt, data map[string]json.RawMessage, now time.Time)
}

// wizardOutcome is what a wizard made of its answers.
type wizardOutcome struct {
	Success bool
	Data    any
	Summary string
}

// wizard is an interactive tool: its steps, in order, and what it does with
// the answers once the last one is in.
type wizard struct {
	Tool        string
	Description string
	// Stateless wizards keep no session memory: the session id is a signed
	// token carrying the whole state.
	Stateless bool
	Steps     []wizardStep
	Finish    func(data map[string]json.RawMessage) wizardOutcome
}

// prompt is step i's prompt as the user sees it: adjusted to the answers
// so far, with the default from initialParams and the reason the last
// answer was refused.
func (w *wizard) prompt(i int, data, defaults map[string]json.RawMessage, refused *refusal, now time.Time) mcp.InteractionPrompt {
	step := w.Steps[i]
	p := step.Prompt
	p.Choices = slices.Clone(p.Choices)
	p.Accept = slices.Clone(p.Accept)
	if p.Validation != nil {
		v := *p.Validation
		p.Validation = &v
	}
	if step.Adjust != nil {
		step.Adjust(&p, data, now)
	}
	if d, ok := defaults[step.Key]; ok {
		p.DefaultValue = d
	}
	if refused != nil {
		p.Error, p.Suggestion = refused.Error, refused.Suggestion
	}
	return p
}

// check applies the rules of step i to an answer to the prompt shown and
// returns the value to keep.
func (w *wizard) check(i int, shown *mcp.InteractionPrompt, v json.RawMessage, now time.Time) (json.RawMessage, *refusal) {
	step := w.Steps[i]
	kept, r := checkAnswer(shown, v)
	if r == nil && step.Check != nil {
		r = step.Check(kept, now)
	}
	if r != nil && step.Hint != "" {
		r.Suggestion = step.Hint
	}
	return kept, r
}

// progress is the progress shown with step i: "Step 2 of 5".
func (w *wizard) progress(i int) *mcp.InteractionProgress {
	n := len(w.Steps)
	return &mcp.InteractionProgress{Current: float64(i + 1), Total: float64(n), Message: fmt.Sprintf("Step %d of %d", i+1, n)}
}

// checkAnswers checks answers given by step key, in step order: the kept
// values, the keys of the steps without an answer or a default, and an
// error naming the first answer refused or key unknown.
func (w *wizard) checkAnswers(given map[string]json.RawMessage, now time.Time) (map[string]json.RawMessage, []string, error) {
	keys := make([]string, len(w.Steps))
	for i, s := range w.Steps {
		keys[i] = s.Key
	}
	for _, k := range slices.Sorted(maps.Keys(given)) {
		if !slices.Contains(keys, k) {
			return nil, nil, fmt.Errorf("%s has no step %q; its steps are %s", w.Tool, k, strings.Join(keys, ", "))
		}
	}
	kept := make(map[string]json.RawMessage, len(w.Steps))
	var missing []string
	for i, s := range w.Steps {
		shown := w.prompt(i, kept, nil, nil, now)
		v, ok := given[s.Key]
		if !ok && len(shown.DefaultValue) == 0 {
			missing = append(missing, s.Key)
			continue
		}
		k, r := w.check(i, &shown, v, now)
		if r != nil {
			return nil, nil, fmt.Errorf("%s refused: %s (%s)", s.Key, r.Error, r.Suggestion)
		}
		kept[s.Key] = k
	}
	return kept, missing, nil
}

// outcome runs Finish and phrases the result of interaction.complete:
// {"success":…,"data":…}.
func (w *wizard) outcome(data map[string]json.RawMessage) (wizardOutcome, json.RawMessage) {
	o := w.Finish(data)
	b, err := json.Marshal(map[string]any{"success": o.Success, "data": o.Data})
	if err != nil {
		o = wizardOutcome{Summary: fmt.Sprintf("the result cannot be encoded: %v", err)}
		b = json.RawMessage(`{"success":false}`)
	}
	return o, b
}

// inputSchema is the tools/list schema of the wizard: one property per
// step, required unless the step has a default.
func (w *wizard) inputSchema() json.RawMessage {
	props := make(map[string]any, len(w.Steps))
	var required []string
	for _, s := range w.Steps {
		props[s.Key] = promptSchema(&s.Prompt)
		if len(s.Prompt.DefaultValue) == 0 {
			required = append(required, s.Key)
		}
	}
	b, err := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

// promptSchema is the JSON Schema of the answer to a prompt.
func promptSchema(p *mcp.InteractionPrompt) map[string]any {
	s := map[string]any{"description": p.Message}
	if len(p.DefaultValue) > 0 {
		s["default"] = p.DefaultValue
	}
	v := p.Validation
	if v == nil {
		v = &mcp.PromptValidation{}
	}
	switch p.Type {
	case mcp.PromptText:
		s["type"] = "string"
		setIf(s, "pattern", v.Pattern, v.Pattern != "")
		setIf(s, "minLength", v.Min, v.Min != nil)
		setIf(s, "maxLength", v.Max, v.Max != nil)
	case mcp.PromptNumber:
		s["type"] = map[bool]string{true: "integer", false: "number"}[p.Format == "integer"]
		setIf(s, "minimum", v.Min, v.Min != nil)
		setIf(s, "maximum", v.Max, v.Max != nil)
	case mcp.PromptConfirm:
		s["type"] = "boolean"
	case mcp.PromptDate:
		s["type"], s["format"] = "string", map[bool]string{true: "date-time", false: "date"}[p.Format == "date-time"]
	case mcp.PromptChoice:
		values := make([]json.RawMessage, len(p.Choices))
		for i, c := range p.Choices {
			values[i] = c.Value
		}
		if p.Multiple {
			s["type"], s["items"], s["uniqueItems"] = "array", map[string]any{"enum": values}, true
		} else {
			s["enum"] = values
		}
	case mcp.PromptFile:
		s["type"], s["required"] = "object", []string{"name", "content"}
		s["properties"] = map[string]any{"name": map[string]string{"type": "string"},
			"size": map[string]string{"type": "integer"}, "content": map[string]string{"type": "string", "contentEncoding": "base64"}}
	case mcp.PromptCustom:
		if len(p.Schema) > 0 {
			s["allOf"] = []json.RawMessage{p.Schema}
		}
	}
	return s
}

// setIf sets s[k] = v when ok.
func setIf(s map[string]any, k string, v any, ok bool) {
	if ok {
		s[k] = v
	}
}
