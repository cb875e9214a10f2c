package schemaform

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
)

// validator checks values against one compiled schema. When the schema
// does not compile (a remote $ref, an unknown $schema, …) err says why and
// values are not checked.
type validator struct {
	schema *schemacheck.Schema
	err    error
}

// compile compiles schema for validation. No resource outside the schema is
// loaded (no files, no network); formats are asserted; a pattern Go's
// regexp cannot compile (ECMAScript lookaround) is not enforced.
func compile(schema json.RawMessage) *validator {
	s, err := schemacheck.Compile(schema)
	if err != nil {
		return &validator{err: fmt.Errorf("the schema does not compile: %w", err)}
	}
	return &validator{schema: s}
}

// check validates a JSON value and returns one FieldError per problem, at
// the JSON pointer of the value concerned.
func (v *validator) check(value json.RawMessage) []FieldError {
	if v == nil || v.schema == nil {
		return nil
	}
	fails, err := v.schema.Validate(value)
	if errors.Is(err, schemacheck.ErrNotChecked) {
		return nil // judged as a schema that does not compile: not at all
	}
	if err != nil {
		return []FieldError{{Message: err.Error()}}
	}
	var out []FieldError
	flatten(fails, &out)
	return dedupe(out)
}

// flatten turns failures into field errors. A missing property is
// reported at the property; a failed oneOf/anyOf once, at its value,
// rather than once per alternative.
func flatten(fails []*schemacheck.Failure, out *[]FieldError) {
	for _, f := range fails {
		path := schemacheck.Pointer(f.Location)
		switch k := f.Kind.(type) {
		case *schemacheck.Required:
			for _, m := range k.Missing {
				*out = append(*out, FieldError{Path: path + "/" + pointerToken(m), Message: "required"})
			}
		case *schemacheck.AnyOf, *schemacheck.OneOf:
			*out = append(*out, FieldError{Path: path, Message: alternatives(f, f.Causes)})
		default:
			*out = append(*out, FieldError{Path: path, Message: f.Message()})
		}
	}
}

// alternatives phrases a failed anyOf/oneOf: when no alternative matched,
// what each one lacks (at most four, two problems each).
func alternatives(f *schemacheck.Failure, causes [][]*schemacheck.Failure) string {
	if len(causes) == 0 {
		return f.Message()
	}
	var alts []string
	for i, c := range causes {
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
