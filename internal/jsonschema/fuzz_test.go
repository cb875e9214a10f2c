package jsonschema

import (
	"encoding/json"
	"testing"
)

// fuzzSchemas seed the fuzz targets with every kind of keyword.
var fuzzSchemas = []string{
	`{"type":"object","properties":{"a":{"type":"string","minLength":1,"pattern":"^x"},"n":{"type":"integer","minimum":0,"multipleOf":0.5}},"required":["a"],"additionalProperties":false}`,
	`{"$defs":{"n":{"anyOf":[{"type":"null"},{"properties":{"k":{"$ref":"#/$defs/n"}}}]}},"$ref":"#/$defs/n"}`,
	`{"prefixItems":[{"const":1}],"items":{"enum":[1,"a",null]},"contains":{"type":"string"},"minContains":1,"maxContains":2,"uniqueItems":true,"unevaluatedItems":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","definitions":{"a":{"items":[{}],"additionalItems":false,"dependencies":{"x":["y"],"z":{"required":["w"]}}}}}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","id":"#r","maximum":3,"exclusiveMaximum":true}`,
	`{"oneOf":[{"format":"date"},{"format":"email"}],"not":{"const":""},"if":{"maxLength":3},"then":{"format":"ipv4"},"else":{"format":"uri"}}`,
	`{"patternProperties":{"^x":{"type":"number"},"(?=y)":false},"propertyNames":{"maxLength":4},"dependentRequired":{"a":["b"]},"unevaluatedProperties":{"type":"boolean"},"minProperties":1,"maxProperties":3}`,
	`{"$id":"http://x.test/r","$defs":{"a":{"$anchor":"A","$id":"a.json","type":"string"}},"$ref":"a.json","allOf":[{"$ref":"#/$defs/a"},{"$ref":"http://x.test/a.json"}]}`,
	`true`, `false`, `{}`, `{"$ref":"#"}`,
}

// fuzzValues seed the values.
var fuzzValues = []string{`{"a":"x","n":1.5}`, `[1,"a","a",null]`, `{"k":{"k":null}}`, `"2026-02-30"`, `1e400`, `-0.0`, `{"xa":1,"y":true,"a":0}`, `null`}

// FuzzCompile compiles arbitrary documents: it must not panic, and a
// compiled schema must validate values without panicking.
func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSchemas {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		s, err := Compile(schema)
		if err != nil {
			return
		}
		for _, v := range fuzzValues {
			checkFailures(t, s, []byte(v))
		}
	})
}

// FuzzValidate validates arbitrary values against arbitrary schemas.
func FuzzValidate(f *testing.F) {
	for i, s := range fuzzSchemas {
		f.Add([]byte(s), []byte(fuzzValues[i%len(fuzzValues)]))
	}
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		s, err := Compile(schema)
		if err != nil {
			return
		}
		checkFailures(t, s, value)
		if json.Valid(value) && depth(value) <= MaxDepth {
			if fails, err := mustCompile(t, `true`).Validate(value); len(fails) != 0 || err != nil {
				t.Fatalf("the true schema refuses %q: %v %v", value, fails, err)
			}
		}
	})
}

// checkFailures validates and checks every failure is whole.
func checkFailures(t *testing.T, s *Schema, value []byte) {
	fails, err := s.Validate(value)
	if err != nil && fails != nil {
		t.Fatalf("failures %v with the error %v", fails, err)
	}
	for _, f := range fails {
		if f.Kind == nil || f.Keyword == "" || f.Message() == "" || f.Error() == "" {
			t.Fatalf("incomplete failure %#v", f)
		}
	}
}

// depth is how deeply a valid JSON document nests.
func depth(data []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == '[' || c == '{'):
			d++
			deepest = max(deepest, d)
		case !inString && (c == ']' || c == '}'):
			d--
		}
	}
	return deepest
}
