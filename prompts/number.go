package prompts

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// numberText is how a number may be typed: digits, an optional sign,
// fraction and exponent (".5" and "5." too).
// It is compiled on first use, not when the program starts.
var numberText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
})

// maxExactInteger is the largest integer every JSON reader holds exactly.
const maxExactInteger = 1 << 53

// numberWidget answers a number prompt: typed text, or ↑/↓ to step by one.
type numberWidget struct {
	*base
	in    textinput.Model
	rules numberRules
}

func newNumber(b *base) *numberWidget {
	rules := newNumberRules(b.prompt)
	placeholder := b.prompt.Placeholder
	if placeholder == "" && rules.integer {
		placeholder = "a whole number"
	} else if placeholder == "" {
		placeholder = "a number"
	}
	w := &numberWidget{base: b, rules: rules, in: newInput(b, placeholder)}
	var def float64
	if json.Unmarshal(b.prompt.DefaultValue, &def) == nil {
		w.in.SetValue(strings.TrimSpace(string(b.prompt.DefaultValue)))
		w.in.CursorEnd()
	}
	return w
}

// Update handles one message: typing edits the number, ↑/↓ add or take
// one, enter answers, esc cancels.
func (w *numberWidget) Update(msg tea.Msg) (Action, tea.Cmd) { return w.update(w, msg) }

func (w *numberWidget) edit(msg tea.Msg) (bool, tea.Cmd) {
	before := w.in.Value()
	// The arrows step; j and k, which Up and Down also hold, are typed.
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if up := key.Matches(k, w.stepUp()); up || key.Matches(k, w.stepDown()) {
			w.step(up)
			return w.in.Value() != before, nil
		}
	}
	var cmd tea.Cmd
	w.in, cmd = w.in.Update(msg)
	return w.in.Value() != before, cmd
}

// step adds one (up) or takes one away, from the number typed (or the
// lower bound, or 0), kept within the bounds.
func (w *numberWidget) step(up bool) {
	f, err := w.parse()
	switch {
	case err != nil && w.rules.min != nil:
		f = *w.rules.min
	case err != nil:
		f = 0
	case up:
		f++
	default:
		f--
	}
	if w.rules.min != nil {
		f = math.Max(f, *w.rules.min)
	}
	if w.rules.max != nil {
		f = math.Min(f, *w.rules.max)
	}
	if w.rules.integer {
		f = math.Ceil(f)
	}
	w.in.SetValue(strconv.FormatFloat(f, 'f', -1, 64))
	w.in.CursorEnd()
}

// parse reads the text typed; the error says it is not a number.
func (w *numberWidget) parse() (float64, error) {
	t := strings.TrimSpace(w.in.Value())
	f, err := strconv.ParseFloat(t, 64)
	if !numberText().MatchString(t) || err != nil || math.IsInf(f, 0) {
		what := "a number such as 42 or 3.5"
		if w.rules.integer {
			what = "a whole number such as 42"
		}
		return 0, errors.New("not a number: type " + what)
	}
	return f, nil
}

// Value is the number typed (null when the text is empty): a JSON number
// literal as typed, an integer without fraction.
func (w *numberWidget) Value() (json.RawMessage, error) {
	t := strings.TrimSpace(w.in.Value())
	if t == "" {
		return json.RawMessage("null"), nil
	}
	f, err := w.parse()
	if err != nil {
		return nil, err
	}
	if w.rules.integer {
		if math.Trunc(f) != f || math.Abs(f) > maxExactInteger {
			return nil, errors.New("not a whole number that JSON holds exactly")
		}
		return json.RawMessage(strconv.FormatFloat(f, 'f', -1, 64)), nil
	}
	if schemaform.IsJSONNumber(t) {
		return json.RawMessage(t), nil
	}
	return json.RawMessage(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

// Validate checks required, that the text is a number (an integer when
// the format says so) and the bounds (min/max).
func (w *numberWidget) Validate() error {
	if strings.TrimSpace(w.in.Value()) == "" {
		if w.rules.required {
			return errRequired
		}
		return nil
	}
	f, err := w.parse()
	if err != nil {
		return err
	}
	if err := w.rules.check(f); err != nil {
		return err
	}
	_, err = w.Value()
	return err
}

// Render draws the question, the rules, the input and the messages.
func (w *numberWidget) Render(width, h int) string {
	return w.frame(width, h, w.rules.describe(), func(cw, _ int) []string { return inputLine(w.base, &w.in, cw) })
}

// KeyMap returns the keys of a number prompt.
func (w *numberWidget) KeyMap() help.KeyMap {
	return typedKeys(w.keys.Submit, w.keys.Cancel, w.stepUp(), w.stepDown())
}

// stepUp and stepDown are Up and Down as a number prompt has them: a
// letter they hold (k, j) is typed, so only the other keys step.
func (w *numberWidget) stepUp() key.Binding   { return untyped(w.keys.Up, "+1") }
func (w *numberWidget) stepDown() key.Binding { return untyped(w.keys.Down, "−1") }

// untyped is b without the keys that type a character, described as desc;
// its help names the first key left ("↑" of "↑/k").
func untyped(b key.Binding, desc string) key.Binding {
	var keys []string
	for _, k := range b.Keys() {
		if utf8.RuneCountInString(k) > 1 { // a named key: up, down, pgup
			keys = append(keys, k)
		}
	}
	name, _, _ := strings.Cut(b.Help().Key, "/")
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(name, desc))
}
