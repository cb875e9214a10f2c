package toolargs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// jsonNumber is the syntax of a JSON number.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// maxSafeInteger is the largest integer a float64 holds exactly (2^53).
const maxSafeInteger = 1 << 53

// shownValue is how many bytes of a typed value a message quotes.
const shownValue = 60

// fromText converts the text of KEY=VALUE by the property's schema n.
func (r root) fromText(text string, n node) (json.RawMessage, error) {
	if cs := r.choices(n); len(cs) > 0 {
		return pick(text, cs)
	}
	ts := r.types(n)
	if len(ts) == 0 {
		// No type: JSON when the text is JSON, a string otherwise.
		if json.Valid([]byte(text)) {
			return compact(json.RawMessage(text)), nil
		}
		return quoteJSON(text), nil
	}
	if len(ts) == 1 && ts[0] == "string" {
		return quoteJSON(text), nil
	}
	var firstErr error
	for _, t := range ts {
		if t == "string" {
			continue // the last resort, below
		}
		v, err := asType(text, t)
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if slices.Contains(ts, "string") {
		return quoteJSON(text), nil
	}
	if len(ts) > 1 {
		return nil, fmt.Errorf("%s is not %s", shown(text), article(strings.Join(ts, " or ")))
	}
	return nil, firstErr
}

// fromJSON checks the value of KEY:=JSON against the types and choices of
// the property's schema n; the whole object is validated later.
func (r root) fromJSON(value json.RawMessage, n node) (json.RawMessage, error) {
	value = compact(value)
	if cs := r.choices(n); len(cs) > 0 {
		for _, c := range cs {
			if bytes.Equal(c.value, value) {
				return value, nil
			}
		}
		return nil, fmt.Errorf("%s is not one of %s", termtext.LineMax(string(value), shownValue), listChoices(cs))
	}
	ts := r.types(n)
	if len(ts) == 0 || slices.ContainsFunc(ts, func(t string) bool { return hasType(value, t) }) {
		return value, nil
	}
	return nil, fmt.Errorf("%s is %s, not %s", termtext.LineMax(string(value), shownValue), article(kindOf(value)), article(strings.Join(ts, " or ")))
}

// pick finds the choice text names: a string choice by its text, any
// choice by its JSON, or by its title.
func pick(text string, cs []choice) (json.RawMessage, error) {
	for _, c := range cs {
		if typed(c.value) == text || string(c.value) == text {
			return c.value, nil
		}
	}
	for _, c := range cs {
		if c.title != "" && strings.EqualFold(c.title, text) {
			return c.value, nil
		}
	}
	return nil, fmt.Errorf("%s is not one of %s", shown(text), listChoices(cs))
}

// asType converts text to a value of the JSON type t.
func asType(text, t string) (json.RawMessage, error) {
	switch t {
	case "integer":
		return asInteger(text)
	case "number":
		if !jsonNumber.MatchString(text) {
			return nil, fmt.Errorf("%s is not a number", shown(text))
		}
		if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s is out of range for a number", shown(text))
		}
		return json.RawMessage(text), nil
	case "boolean":
		if text == "true" || text == "false" {
			return json.RawMessage(text), nil
		}
		return nil, fmt.Errorf("%s is not a boolean: give true or false", shown(text))
	case "null":
		if text == "null" {
			return json.RawMessage(text), nil
		}
		return nil, fmt.Errorf("%s is not null", shown(text))
	case "object", "array":
		v := json.RawMessage(text)
		if json.Valid(v) && hasType(v, t) {
			return compact(v), nil
		}
		example := `KEY:='{"a":1}'`
		if t == "array" {
			example = `KEY:='["a","b"]'`
		}
		return nil, fmt.Errorf("%s is not %s: give it as JSON, as in %s", shown(text), article(t), example)
	}
	// A type JSON Schema does not define: send the text.
	return quoteJSON(text), nil
}

// asInteger converts text to an integer: digits, or a number with no
// fraction (2.0, 1e3) that a float64 holds exactly, written as digits.
func asInteger(text string) (json.RawMessage, error) {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return json.RawMessage(strconv.FormatInt(i, 10)), nil
	}
	if !jsonNumber.MatchString(text) {
		return nil, fmt.Errorf("%s is not an integer", shown(text))
	}
	f, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || math.Abs(f) > maxSafeInteger:
		return nil, fmt.Errorf("%s is out of range for an integer", shown(text))
	case f != math.Trunc(f):
		return nil, fmt.Errorf("%s is not an integer", shown(text))
	}
	return json.RawMessage(strconv.FormatFloat(f, 'f', 0, 64)), nil
}

// hasType reports whether the JSON value v is of the JSON Schema type t.
func hasType(v json.RawMessage, t string) bool {
	k := kindOf(v)
	switch {
	case k == t:
		return true
	case t == "number":
		return k == "integer"
	case t == "integer" && k == "number":
		f, err := strconv.ParseFloat(string(v), 64)
		return err == nil && f == math.Trunc(f)
	}
	return !slices.Contains([]string{"string", "integer", "number", "boolean", "null", "object", "array"}, t)
}

// kindOf names the JSON type of the valid JSON value v ("integer" for a
// number written without fraction nor exponent).
func kindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(v, ".eE") {
		return "number"
	}
	return "integer"
}

// quoteJSON encodes text as a JSON string.
func quoteJSON(text string) json.RawMessage {
	b, _ := json.Marshal(text)
	return b
}

// shown quotes a typed value for a message, cut to shownValue bytes.
func shown(text string) string { return termtext.QuoteMax(text, shownValue) }

// article puts "a" or "an" before a type name.
func article(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}
