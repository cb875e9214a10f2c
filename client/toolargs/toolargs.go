// Package toolargs turns the arguments people type (KEY=VALUE, KEY:=JSON,
// KEY=@FILE) into the arguments object of a tools/call or prompts/get,
// typed and checked by the tool's inputSchema or the prompt's arguments.
//
// The words:
//
//	KEY=VALUE    VALUE typed by the property's schema (below)
//	KEY:=JSON    any JSON value: objects, arrays, numbers, null
//	KEY=@FILE    the file's contents as VALUE (@- reads standard input)
//	KEY:=@FILE   the file's contents parsed as JSON
//	KEY=@@TEXT   the text @TEXT (a VALUE that starts with @)
//
// A VALUE is typed by the property's schema: a string is sent as typed;
// an integer must be one (1.5 and "abc" are refused; 2.0 and 1e3 are sent
// as 2 and 1000); a number must be a JSON number; a boolean is true or
// false, nothing else; an object or array must be given as its JSON. A
// property with an enum, a const, or a oneOf/anyOf of consts takes one
// of those values, named by its text or JSON, or by its title. A type
// union (["integer","null"], or anyOf of types) tries each type other
// than string in the order the schema lists them, then string: so with
// ["string","null"] the VALUE null is null (send the string with
// KEY:='"null"'). A property with no type takes VALUE as JSON when it
// parses as JSON, and as a string otherwise.
//
// Keys are flat (a dot is part of the name): nested values go in with
// KEY:=JSON. A key given twice is refused. A key the schema does not
// declare is refused, with the closest declared names, unless the schema
// lets it in: additionalProperties true or a schema, a patternProperties
// pattern it matches, or a schema with no properties member at all that
// says nothing of additionalProperties ("properties": {} takes no keys). A required key left out is
// refused. Then the whole object is validated against the inputSchema
// (internal/app/schemacheck); a schema that does not compile, or a value
// too large to judge, leaves the arguments typed by the rules above, with
// a warning.
package toolargs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Source reads the contents of a file named by KEY=@FILE ("-" for
// standard input).
type Source func(path string) ([]byte, error)

// Error is an argument refused: Key names it ("" when the refusal is of
// the whole object) and Msg says why, in the schema's words.
type Error struct {
	Key string
	Msg string
}

// Error renders "argument KEY: MSG".
func (e *Error) Error() string {
	if e.Key == "" {
		return e.Msg
	}
	return "argument " + shownKey(e.Key) + ": " + e.Msg
}

// Arguments is the arguments object built from the words, and the
// warnings of its checking (a schema that could not be checked).
type Arguments struct {
	Object   json.RawMessage
	Warnings []string
}

// ForTool converts words (KEY=VALUE, KEY:=JSON, KEY=@FILE) into the
// arguments object of a tools/call by the tool's inputSchema. A key the
// schema does not declare, a value of the wrong type, a value outside an
// enum or a required key left out is refused with the schema's words.
func ForTool(inputSchema json.RawMessage, words []string, read Source) (json.RawMessage, error) {
	args, err := Convert(inputSchema, words, read)
	if err != nil {
		return nil, err
	}
	return args.Object, nil
}

// Convert is ForTool with the warnings of the check: an inputSchema that
// does not compile, or arguments it could not judge, are sent as the
// words typed them and said so.
func Convert(inputSchema json.RawMessage, words []string, read Source) (Arguments, error) {
	r := newRoot(decodeNode(inputSchema))
	var members []jsonrpc.Member
	for _, w := range words {
		wd, err := parseWord(w)
		if err != nil {
			return Arguments{}, err
		}
		if err := refuseTwice(members, wd.key, func(m jsonrpc.Member) string { return m.Key }); err != nil {
			return Arguments{}, err
		}
		n, ok := r.property(wd.key)
		if !ok {
			return Arguments{}, undeclared(wd.key, "tool", r.declared())
		}
		v, err := wd.value(r, n, read)
		if err != nil {
			var unread *sourceError
			if about := r.about(n); about != "" && !errors.As(err, &unread) {
				err = fmt.Errorf("%w (%s)", err, about)
			}
			return Arguments{}, &Error{Key: wd.key, Msg: err.Error()}
		}
		members = append(members, jsonrpc.Member{Key: wd.key, Value: v})
	}
	if err := r.missing(func(k string) bool { return hasKey(members, k) }); err != nil {
		return Arguments{}, err
	}
	obj := jsonrpc.EncodeObject(members)
	warn, err := validate(inputSchema, obj)
	if err != nil {
		return Arguments{}, err
	}
	return Arguments{Object: obj, Warnings: warn}, nil
}

func hasKey(ms []jsonrpc.Member, key string) bool {
	for _, m := range ms {
		if m.Key == key {
			return true
		}
	}
	return false
}

// refuseTwice refuses key when one of items already has it.
func refuseTwice[T any](items []T, key string, keyOf func(T) string) error {
	for _, it := range items {
		if keyOf(it) == key {
			return &Error{Key: key, Msg: "given twice; give each key once (an array goes in as KEY:='[…]')"}
		}
	}
	return nil
}

// undeclared refuses a key that the tool or prompt (what) does not
// take, naming the closest of the names it does.
func undeclared(key, what string, names []string) error {
	if len(names) == 0 {
		return &Error{Key: key, Msg: "the " + what + " takes no arguments"}
	}
	msg := "not an argument of the " + what + "; it takes " + quoteList(names)
	if close := mcpconfig.Closest(key, names); len(close) > 0 && len(close) < len(names) {
		for i, n := range close {
			close[i] = shownKey(n)
		}
		msg += "; did you mean " + strings.Join(close, " or ") + "?"
	}
	return &Error{Key: key, Msg: msg}
}

// missing refuses the required keys that given lacks, with their
// descriptions.
func (r root) missing(given func(string) bool) error {
	var lacking []string
	for _, k := range r.Required {
		if given(k) {
			continue
		}
		s := shownKey(k)
		if raw, ok := r.Properties[k]; ok {
			if about := r.about(r.resolve(decodeNode(raw))); about != "" {
				s += " (" + about + ")"
			}
		}
		lacking = append(lacking, s)
	}
	if len(lacking) == 0 {
		return nil
	}
	return &Error{Msg: "missing required " + plural.Word(len(lacking), "argument", "arguments") + " " + strings.Join(lacking, ", ")}
}

// quoteList joins names for a message.
func quoteList(names []string) string {
	const shownNames = 12
	out := make([]string, 0, min(len(names), shownNames+1))
	for i, n := range names {
		if i == shownNames {
			out = append(out, fmt.Sprintf("and %d more", len(names)-shownNames))
			break
		}
		out = append(out, shownKey(n))
	}
	return strings.Join(out, ", ")
}
