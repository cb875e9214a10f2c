package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// shownResult is how many bytes of a result of the wrong shape are quoted.
const shownResult = 80

// malformedResult says in protocol words why a method's result did not
// decode into the shape the method promises: "the initialize result is not
// an object: 42", "the initialize result's protocolVersion is a number, not
// a string". err is what encoding/json said.
func malformedResult(method string, raw json.RawMessage, err error) string {
	if v := bytes.TrimSpace(raw); len(v) == 0 || v[0] != '{' {
		return fmt.Sprintf("the %s result is not an object: %s", method, termtext.LineMax(string(v), shownResult))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("the %s result's %s is %s, not %s", method, te.Field, jsonValueName(te.Value), jsonTypeName(te.Type))
	}
	return fmt.Sprintf("the %s result is malformed: %v", method, err)
}

// jsonValueName names the kind of JSON value encoding/json reports ("number
// 1.5", "string", "bool") with an article.
func jsonValueName(v string) string {
	switch {
	case v == "object" || v == "array":
		return "an " + v
	case v == "bool":
		return "a boolean"
	case v == "null":
		return v
	}
	return "a " + v
}

// jsonTypeName names what a Go type reads from JSON.
func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
