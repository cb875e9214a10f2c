package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxUploadBytes bounds the decoded content of a file answer.
const maxUploadBytes = 8 << 20

// refusal is why an answer was refused, and how to answer instead.
type refusal struct {
	Error      string `json:"error"`
	Suggestion string `json:"suggestion,omitempty"`
}

// refuse builds a refusal with a formatted error.
func refuse(suggestion, format string, a ...any) *refusal {
	return &refusal{Error: fmt.Sprintf(format, a...), Suggestion: suggestion}
}

// fileAnswer is the value a client sends for a file prompt: the file's
// name and its content in base64.
type fileAnswer struct {
	Name    string `json:"name"`
	Size    *int64 `json:"size"`
	Content string `json:"content"`
}

// fileSummary is what the server keeps of a file answer.
type fileSummary struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// checkAnswer applies the prompt's own rules (type, required, pattern,
// min, max, choices, format, accept, schema) to a value and returns the
// value to keep: the value itself, the default for an empty optional
// answer, or the summary of a file.
func checkAnswer(p *mcp.InteractionPrompt, v json.RawMessage) (json.RawMessage, *refusal) {
	if t := bytes.TrimSpace(v); len(t) == 0 || string(t) == "null" {
		switch {
		case len(p.DefaultValue) > 0:
			return p.DefaultValue, nil
		case p.Validation != nil && p.Validation.Required:
			return nil, refuse("", "an answer is required")
		}
		return json.RawMessage("null"), nil
	}
	switch p.Type {
	case mcp.PromptText:
		return checkText(p, v)
	case mcp.PromptChoice:
		return checkChoice(p, v)
	case mcp.PromptConfirm:
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return nil, refuse("Answer true or false", "the answer is not a yes or no")
		}
	case mcp.PromptNumber:
		return checkNumber(p, v)
	case mcp.PromptDate:
		return checkDate(p, v)
	case mcp.PromptFile:
		return checkFile(p, v)
	case mcp.PromptCustom:
		if err := validateJSON(p.Schema, v); err != nil {
			return nil, refuse("Send a value that matches the prompt's schema", "the value does not match the schema: %v", err)
		}
	}
	return v, nil
}

// checkText checks a text answer: a string, min/max characters, pattern.
func checkText(p *mcp.InteractionPrompt, v json.RawMessage) (json.RawMessage, *refusal) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return nil, refuse("Answer with text", "the answer is not text")
	}
	if val := p.Validation; val != nil {
		n := float64(utf8.RuneCountInString(s))
		if val.Min != nil && n < *val.Min {
			return nil, refuse("", "%q is shorter than %g characters", s, *val.Min)
		}
		if val.Max != nil && n > *val.Max {
			return nil, refuse("", "the answer is longer than %g characters", *val.Max)
		}
		if val.Pattern != "" {
			re, err := regexp.Compile(val.Pattern)
			if err == nil && !re.MatchString(s) {
				return nil, refuse("Match the pattern "+val.Pattern, "%q does not have the expected form", s)
			}
		}
	}
	return v, nil
}

// checkChoice checks that the answer is one of the choices, or with
// Multiple an array of distinct choices.
func checkChoice(p *mcp.InteractionPrompt, v json.RawMessage) (json.RawMessage, *refusal) {
	values := make([]any, 0, len(p.Choices))
	names := make([]string, 0, len(p.Choices))
	for _, c := range p.Choices {
		var cv any
		_ = json.Unmarshal(c.Value, &cv)
		values = append(values, cv)
		names = append(names, string(c.Value))
	}
	hint := "Pick one of " + strings.Join(names, ", ")
	isChoice := func(x any) bool {
		return slices.ContainsFunc(values, func(c any) bool { return reflect.DeepEqual(c, x) })
	}
	var got any
	if json.Unmarshal(v, &got) != nil {
		return nil, refuse(hint, "the answer is not JSON")
	}
	if !p.Multiple {
		if !isChoice(got) {
			return nil, refuse(hint, "%s is not one of the choices", v)
		}
		return v, nil
	}
	list, ok := got.([]any)
	if !ok {
		return nil, refuse("Answer with an array of choices", "the answer is not an array")
	}
	for i, x := range list {
		if !isChoice(x) || slices.ContainsFunc(list[:i], func(y any) bool { return reflect.DeepEqual(x, y) }) {
			return nil, refuse(hint, "item %d is not a choice, or is chosen twice", i)
		}
	}
	return v, nil
}

// checkNumber checks a number answer: a number, an integer with Format
// "integer", within min/max.
func checkNumber(p *mcp.InteractionPrompt, v json.RawMessage) (json.RawMessage, *refusal) {
	var f float64
	if json.Unmarshal(v, &f) != nil {
		return nil, refuse("Answer with a number", "the answer is not a number")
	}
	if p.Format == "integer" && f != math.Trunc(f) {
		return nil, refuse("Answer with a whole number", "%g is not a whole number", f)
	}
	if val := p.Validation; val != nil {
		if (val.Min != nil && f < *val.Min) || (val.Max != nil && f > *val.Max) {
			return nil, refuse(rangeHint(val), "%g is out of range", f)
		}
	}
	return v, nil
}

// rangeHint phrases the bounds of a number prompt.
func rangeHint(val *mcp.PromptValidation) string {
	switch {
	case val.Min != nil && val.Max != nil:
		return fmt.Sprintf("Use a number from %g to %g", *val.Min, *val.Max)
	case val.Min != nil:
		return fmt.Sprintf("Use a number of at least %g", *val.Min)
	default:
		return fmt.Sprintf("Use a number of at most %g", *val.Max)
	}
}

// checkDate checks a date (YYYY-MM-DD) or, with Format "date-time", an
// RFC 3339 time.
func checkDate(p *mcp.InteractionPrompt, v json.RawMessage) (json.RawMessage, *refusal) {
	layout, hint := time.DateOnly, "Use YYYY-MM-DD"
	if p.Format == "date-time" {
		layout, hint = time.RFC3339, "Use an RFC 3339 time such as 2026-12-24T18:00:00Z"
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return nil, refuse(hint, "the answer is not text")
	}
	if _, err := time.Parse(layout, s); err != nil {
		return nil, refuse(hint, "%q is not a valid date", s)
	}
	return v, nil
}

// checkFile checks a file answer (name, optional size, base64 content)
// against the accepted extensions, and keeps its name, size and sha256.
func checkFile(p *mcp.InteractionPrompt, v json.RawMessage) (json.RawMessage, *refusal) {
	hint := `Send {"name":"report.csv","size":N,"content":"<base64>"}`
	var f fileAnswer
	if json.Unmarshal(v, &f) != nil || f.Name == "" {
		return nil, refuse(hint, "the answer is not a file with a name and content")
	}
	if ext := strings.ToLower(path.Ext(f.Name)); len(p.Accept) > 0 && !slices.Contains(p.Accept, ext) {
		return nil, refuse("Choose a file ending in "+strings.Join(p.Accept, ", "), "%s is not an accepted kind of file", f.Name)
	}
	if base64.StdEncoding.DecodedLen(len(f.Content)) > maxUploadBytes+3 {
		return nil, refuse("", "%s is larger than %d bytes", f.Name, maxUploadBytes)
	}
	content, err := base64.StdEncoding.DecodeString(f.Content)
	if err != nil {
		return nil, refuse(hint, "the content of %s is not base64", f.Name)
	}
	if f.Size != nil && *f.Size != int64(len(content)) {
		return nil, refuse("", "%s announces %d bytes but holds %d", f.Name, *f.Size, len(content))
	}
	sum := sha256.Sum256(content)
	b, err := json.Marshal(fileSummary{Name: f.Name, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return nil, refuse("", "the file cannot be summarised: %v", err)
	}
	return b, nil
}
