package schemacheck

import (
	"encoding/json"
	"testing"
)

// fuzzSchemas seed the fuzz target with every kind of keyword.
var fuzzSchemas = []string{
	`{"type":"object","properties":{"a":{"type":"string","minLength":1,"pattern":"^x"},"n":{"type":"integer","minimum":0,"multipleOf":0.5}},"required":["a"],"additionalProperties":false}`,
	`{"$defs":{"n":{"anyOf":[{"type":"null"},{"properties":{"k":{"$ref":"#/$defs/n"}}}]}},"$ref":"#/$defs/n"}`,
	`{"prefixItems":[{"const":1}],"items":{"enum":[1,"a",null]},"contains":{"type":"string"},"minContains":1,"maxContains":2,"uniqueItems":true,"unevaluatedItems":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","definitions":{"a":{"items":[{}],"additionalItems":false,"dependencies":{"x":["y"],"z":{"required":["w"]}}}}}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","id":"#r","maximum":3,"exclusiveMaximum":true}`,
	`{"oneOf":[{"format":"date"},{"format":"email"}],"not":{"const":""},"if":{"maxLength":3},"then":{"format":"ipv4"},"else":{"format":"uri"}}`,
	`{"patternProperties":{"^x":{"type":"number"},"(?=y)":false},"propertyNames":{"maxLength":4},"dependentRequired":{"a":["b"]},"unevaluatedProperties":{"type":"boolean"},"minProperties":1,"maxProperties":3}`,
	`true`, `false`, `{}`, `{"$ref":"#"}`,
}

// fuzzValues seed the values.
var fuzzValues = []string{`{"a":"x","n":1.5}`, `[1,"a","a",null]`, `{"k":{"k":null}}`, `"2026-02-30"`, `1e400`, `-0.0`, `{"xa":1,"y":true,"a":0}`, `null`}

// FuzzValidate validates arbitrary values against arbitrary schemas, as a
// server hands both: nothing panics, and every failure says something.
func FuzzValidate(f *testing.F) {
	for i, s := range fuzzSchemas {
		f.Add([]byte(s), []byte(fuzzValues[i%len(fuzzValues)]))
	}
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		s, err := Compile(json.RawMessage(schema))
		if err != nil {
			return
		}
		fails, err := s.Validate(json.RawMessage(value))
		if err != nil {
			return
		}
		for _, f := range fails {
			if f.Error() == "" {
				t.Fatalf("an empty failure of %q against %q", value, schema)
			}
		}
	})
}
