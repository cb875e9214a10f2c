package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	jskind "github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// schemaURL names the schema inside the validator; nothing is ever loaded
// from it.
const schemaURL = "mcpscope:///inputSchema.json"

// validator checks values against one compiled schema. When the schema
// does not compile (a remote $ref, an unknown $schema, …) err says why and
// values are not checked.
type validator struct {
	schema *jsonschema.Schema
	err    error
}

// compile compiles schema for validation. No resource outside the schema is
// loaded (no files, no network); formats are asserted; a pattern Go's
// regexp cannot compile (ECMAScript lookaround) is not enforced.
func compile(schema json.RawMessage) (v *validator) {
	defer func() {
		if r := recover(); r != nil {
			v = &validator{err: fmt.Errorf("the schema validator failed on this schema: %v", r)}
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return &validator{err: fmt.Errorf("the schema is not JSON: %w", err)}
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{})
	c.AssertFormat()
	c.UseRegexpEngine(lenientRegexp)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return &validator{err: fmt.Errorf("the schema cannot be loaded: %w", err)}
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return &validator{err: fmt.Errorf("the schema does not compile: %w", err)}
	}
	return &validator{schema: sch}
}

// anyString matches every string: it stands in for a pattern that Go's
// regexp engine cannot compile.
type anyString string

// MatchString implements jsonschema.Regexp.
func (anyString) MatchString(string) bool { return true }

// String implements jsonschema.Regexp.
func (a anyString) String() string { return string(a) }

func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return anyString(s), nil
	}
	return re, nil
}

// check validates a JSON value and returns one FieldError per problem, at
// the JSON pointer of the value concerned.
func (v *validator) check(value json.RawMessage) (out []FieldError) {
	if v == nil || v.schema == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			out = []FieldError{{Message: fmt.Sprintf("the schema validator failed: %v", r)}}
		}
	}()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return []FieldError{{Message: "not JSON: " + err.Error()}}
	}
	err = v.schema.Validate(inst)
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ve):
		return []FieldError{{Message: err.Error()}}
	}
	flatten(ve, &out)
	return dedupe(out)
}

// flatten collects the leaves of a validation error tree. A missing
// property is reported at the property; a failed oneOf/anyOf once, at its
// value, rather than once per alternative.
func flatten(e *jsonschema.ValidationError, out *[]FieldError) {
	path := pointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *jskind.Required:
		for _, m := range k.Missing {
			*out = append(*out, FieldError{Path: path + "/" + pointerToken(m), Message: "required"})
		}
		return
	case *jskind.AnyOf, *jskind.OneOf:
		*out = append(*out, FieldError{Path: path, Message: alternatives(e)})
		return
	}
	if len(e.Causes) == 0 {
		*out = append(*out, FieldError{Path: path, Message: message(e.ErrorKind)})
	}
	for _, c := range e.Causes {
		flatten(c, out)
	}
}

// alternatives phrases a failed anyOf/oneOf: when no alternative matched,
// what each one lacks (at most four, two problems each).
func alternatives(e *jsonschema.ValidationError) string {
	msg := message(e.ErrorKind)
	if len(e.Causes) == 0 {
		return msg
	}
	var alts []string
	for i, c := range e.Causes {
		if i == 4 {
			alts = append(alts, "…")
			break
		}
		var leaves []FieldError
		flatten(c, &leaves)
		parts := make([]string, 0, 2)
		for _, l := range leaves[:min(len(leaves), 2)] {
			parts = append(parts, l.Error())
		}
		alts = append(alts, strings.Join(parts, ", "))
	}
	return "needs one of: " + strings.Join(alts, " | ")
}

// pointer joins instance location tokens into a JSON pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(pointerToken(t))
	}
	return b.String()
}

// dedupe drops repeated errors, keeping the first of each.
func dedupe(errs []FieldError) []FieldError {
	seen := map[FieldError]bool{}
	out := errs[:0]
	for _, e := range errs {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
