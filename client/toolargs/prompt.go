package toolargs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// promptArgument is one entry of a prompt's arguments list.
type promptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// ForPrompt converts words into the arguments of a prompts/get: every
// value is a string, the prompt's declared arguments are the keys it
// takes and its required ones must be given. KEY=VALUE and KEY=@FILE give
// the text; KEY:=JSON is taken only when the JSON is a string (prompt
// arguments are strings).
func ForPrompt(arguments json.RawMessage, words []string, read Source) (map[string]string, error) {
	var declared []promptArgument
	if len(strings.TrimSpace(string(arguments))) > 0 && string(arguments) != "null" {
		if err := json.Unmarshal(arguments, &declared); err != nil {
			return nil, &Error{Msg: "the prompt's arguments are not a list of {name, description, required}: " + termtext.OneLine(err.Error())}
		}
	}
	names := make([]string, 0, len(declared))
	for _, a := range declared {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	out, err := Strings("prompt", names, words, read)
	if err != nil {
		return nil, err
	}
	var lacking []string
	for _, a := range declared {
		if _, ok := out[a.Name]; a.Required && !ok {
			s := shownKey(a.Name)
			if d := strings.TrimSpace(a.Description); d != "" {
				s += " (" + termtext.QuoteMax(strings.Join(strings.Fields(d), " "), 200) + ")"
			}
			lacking = append(lacking, s)
		}
	}
	if len(lacking) > 0 {
		return nil, &Error{Msg: "missing required " + plural.Word(len(lacking), "argument", "arguments") + " " + strings.Join(lacking, ", ")}
	}
	return out, nil
}

// Strings converts words into string arguments of what (a "prompt", a
// "template") whose arguments are names, none required: KEY=VALUE and
// KEY=@FILE give the text, KEY:=JSON only a JSON string; a key given twice
// or not among names is refused.
func Strings(what string, names []string, words []string, read Source) (map[string]string, error) {
	out := make(map[string]string, len(words))
	var given []string
	for _, w := range words {
		wd, err := parseWord(w)
		if err != nil {
			return nil, err
		}
		if err := refuseTwice(given, wd.key, func(k string) string { return k }); err != nil {
			return nil, err
		}
		given = append(given, wd.key)
		if !slices.Contains(names, wd.key) {
			return nil, undeclared(wd.key, what, names)
		}
		text, err := wd.raw(read)
		if err != nil {
			return nil, &Error{Key: wd.key, Msg: err.Error()}
		}
		if wd.json {
			var s string
			if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &s); err != nil {
				return nil, &Error{Key: wd.key, Msg: fmt.Sprintf("%s arguments are strings; %s is not a JSON string (write KEY=VALUE)", what, shownSource(wd, text))}
			}
			text = s
		}
		out[wd.key] = text
	}
	return out, nil
}
