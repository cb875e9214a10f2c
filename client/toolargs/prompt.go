package toolargs

import (
	"encoding/json"
	"fmt"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"sort"
	"strings"

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
	byName := make(map[string]promptArgument, len(declared))
	names := make([]string, 0, len(declared))
	for _, a := range declared {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	sort.Strings(names)
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
		if _, ok := byName[wd.key]; !ok {
			return nil, undeclared(wd.key, "prompt", names)
		}
		text, err := wd.raw(read)
		if err != nil {
			return nil, &Error{Key: wd.key, Msg: err.Error()}
		}
		if wd.json {
			var s string
			if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &s); err != nil {
				return nil, &Error{Key: wd.key, Msg: fmt.Sprintf("prompt arguments are strings; %s is not a JSON string (write KEY=VALUE)", shownSource(wd, text))}
			}
			text = s
		}
		out[wd.key] = text
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
