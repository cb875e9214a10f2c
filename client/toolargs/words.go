package toolargs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// word is one KEY=VALUE, KEY:=JSON or KEY=@FILE.
type word struct {
	key  string
	text string // VALUE, JSON or FILE
	json bool   // KEY:=
	file bool   // @FILE
}

// parseWord splits one word at its first "=" (":=" when a ":" precedes it).
func parseWord(w string) (word, error) {
	key, text, ok := strings.Cut(w, "=")
	if !ok {
		return word{}, &Error{Msg: fmt.Sprintf("%s is not KEY=VALUE, KEY:=JSON or KEY=@FILE", shown(w))}
	}
	wd := word{key: key, text: text}
	if k, isJSON := strings.CutSuffix(key, ":"); isJSON {
		wd.key, wd.json = k, true
	}
	if wd.key == "" {
		return word{}, &Error{Msg: fmt.Sprintf("%s has no KEY before its =", shown(w))}
	}
	switch {
	case strings.HasPrefix(text, "@@"):
		wd.text = text[1:]
	case strings.HasPrefix(text, "@"):
		wd.text, wd.file = text[1:], true
	}
	return wd, nil
}

// raw returns the word's VALUE or JSON text, reading its file.
func (wd word) raw(read Source) (string, error) {
	if !wd.file {
		return wd.text, nil
	}
	if wd.text == "" {
		return "", errors.New("@ names no file (write @@ for a value that starts with @)")
	}
	if read == nil {
		return "", fmt.Errorf("cannot read %s here", shown(wd.text))
	}
	b, err := read(wd.text)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// value converts the word by the property's schema n.
func (wd word) value(r root, n node, read Source) (json.RawMessage, error) {
	text, err := wd.raw(read)
	if err != nil {
		return nil, &sourceError{err}
	}
	if wd.json {
		v := json.RawMessage(strings.TrimSpace(text))
		if !json.Valid(v) {
			return nil, fmt.Errorf("%s is not JSON: %w", shownSource(wd, text), jsonError(v))
		}
		return r.fromJSON(v, n)
	}
	if wd.file && !isStringOnly(r.types(n)) {
		text = strings.TrimSpace(text) // a number in a file ends with a newline
	}
	return r.fromText(text, n)
}

// sourceError is a value that could not be read (a file, standard
// input): no fault of its type, so no message adds the schema's type.
type sourceError struct{ error }

func (e *sourceError) Unwrap() error { return e.error }

// isStringOnly reports whether ts allows strings and nothing else.
func isStringOnly(ts []string) bool { return len(ts) == 1 && ts[0] == "string" }

// shownSource names what a value came from: the file, or the value.
func shownSource(wd word, text string) string {
	if wd.file {
		return "the file " + shown(wd.text)
	}
	return shown(text)
}

// jsonError is why v does not parse.
func jsonError(v json.RawMessage) error {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return err
	}
	return errors.New("not one JSON value")
}

// shownKey quotes a key for a message when it needs quoting.
func shownKey(k string) string {
	if termtext.Safe(k) && k != "" && !strings.ContainsAny(k, " ,\"") {
		return k
	}
	return termtext.QuoteMax(k, shownValue)
}

// validate checks obj against the whole inputSchema. A schema that does
// not compile, or a value it cannot judge, is a warning: the arguments
// go as typed.
func validate(inputSchema, obj json.RawMessage) ([]string, error) {
	if len(strings.TrimSpace(string(inputSchema))) == 0 {
		return nil, nil
	}
	s, err := schemacheck.Compile(inputSchema)
	if err != nil {
		return []string{"the inputSchema does not compile (" + termtext.OneLine(err.Error()) + "); the arguments are sent as typed by their properties"}, nil
	}
	fails, err := s.Validate(obj)
	if err != nil {
		return []string{"the arguments were not checked against the inputSchema: " + termtext.OneLine(err.Error())}, nil
	}
	if len(fails) == 0 {
		return nil, nil
	}
	const shownFails = 3
	var parts []string
	for i, f := range fails {
		if i == shownFails {
			parts = append(parts, fmt.Sprintf("and %d more", len(fails)-shownFails))
			break
		}
		at := schemacheck.Pointer(f.Location)
		if at == "" {
			at = "the arguments"
		}
		parts = append(parts, at+" "+termtext.OneLine(f.Message()))
	}
	return nil, &Error{Msg: "the arguments do not fit the inputSchema: " + strings.Join(parts, "; ")}
}
