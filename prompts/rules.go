package prompts

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// errRequired is the message of an empty answer to a required prompt.
var errRequired = errors.New("an answer is required")

// textRules are the checks of a text answer, from the prompt's validation.
type textRules struct {
	required bool
	pattern  *regexp.Regexp
	min, max *float64 // length in characters
}

// newTextRules reads the rules of a text prompt. A pattern Go's regexp
// cannot compile (ECMAScript lookaround, say) is left to the server; the
// note says so.
func newTextRules(v *mcp.PromptValidation) (r textRules, note string) {
	if v == nil {
		return r, ""
	}
	r = textRules{required: v.Required, min: v.Min, max: v.Max}
	if v.Pattern != "" {
		re, err := regexp.Compile(v.Pattern)
		if err != nil {
			return r, "The pattern " + v.Pattern + " is not checked here; the server checks it."
		}
		r.pattern = re
	}
	return r, ""
}

// check tests s: empty is fine unless required; then the length, then
// the pattern.
func (r textRules) check(s string) error {
	if strings.TrimSpace(s) == "" {
		if r.required {
			return errRequired
		}
		if s == "" {
			return nil
		}
	}
	n := float64(utf8.RuneCountInString(s))
	switch {
	case r.min != nil && n < *r.min:
		return fmt.Errorf("at least %s", characters(*r.min))
	case r.max != nil && n > *r.max:
		return fmt.Errorf("at most %s", characters(*r.max))
	case r.pattern != nil && !r.pattern.MatchString(s):
		return fmt.Errorf("must match %s", r.pattern)
	}
	return nil
}

// describe lists the rules for the line under the question.
func (r textRules) describe() string {
	var parts []string
	if r.required {
		parts = append(parts, "required")
	}
	switch {
	case r.min != nil && r.max != nil:
		parts = append(parts, fmt.Sprintf("%s–%s characters", num(*r.min), num(*r.max)))
	case r.min != nil:
		parts = append(parts, "at least "+characters(*r.min))
	case r.max != nil:
		parts = append(parts, "at most "+characters(*r.max))
	}
	if r.pattern != nil {
		parts = append(parts, "pattern "+r.pattern.String())
	}
	return strings.Join(parts, " · ")
}

// characters is "1 character" or "n characters".
func characters(n float64) string {
	if n == 1 {
		return "1 character"
	}
	return num(n) + " characters"
}

// numberRules are the checks of a number answer.
type numberRules struct {
	required bool
	integer  bool
	min, max *float64
}

func newNumberRules(p mcp.InteractionPrompt) numberRules {
	r := numberRules{integer: p.Format == "integer"}
	if v := p.Validation; v != nil {
		r.required, r.min, r.max = v.Required, v.Min, v.Max
	}
	return r
}

// check tests a parsed number against the bounds and integrality.
func (r numberRules) check(f float64) error {
	if r.integer && math.Trunc(f) != f {
		return errors.New("must be a whole number (an integer)")
	}
	if (r.min != nil && f < *r.min) || (r.max != nil && f > *r.max) {
		return errors.New(r.bounds())
	}
	return nil
}

// bounds phrases the range: "between 1 and 9", "at least 1", "at most 9".
func (r numberRules) bounds() string {
	switch {
	case r.min != nil && r.max != nil:
		return fmt.Sprintf("between %s and %s", num(*r.min), num(*r.max))
	case r.min != nil:
		return "at least " + num(*r.min)
	case r.max != nil:
		return "at most " + num(*r.max)
	}
	return ""
}

// describe lists the rules for the line under the question.
func (r numberRules) describe() string {
	var parts []string
	if r.required {
		parts = append(parts, "required")
	}
	if r.integer {
		parts = append(parts, "integer")
	} else {
		parts = append(parts, "number")
	}
	if b := r.bounds(); b != "" {
		parts = append(parts, b)
	}
	return strings.Join(parts, " · ")
}

// num writes a bound the short way: 3, 2.5, 1e+21.
func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
