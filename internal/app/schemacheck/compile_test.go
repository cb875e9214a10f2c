package schemacheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// What cannot compile says where and why, in the words of Failure.Message
// for a schema that breaks its draft's meta-schema.
func TestCompileErrors(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"$ref":"other.json"}`, "other.json names another document"},
		{`{"$ref":"https://example.com/s.json#/a"}`, "names another document"},
		{`{"$schema":"https://example.com/unknown-dialect"}`, "is not a JSON Schema draft mcpscope knows"},
		{`{"$schema":3}`, "at #/$schema: must be a string"},
		{`{"type":"strin"}`, `at #/type: must be one of "array", "boolean"`},
		{`{"properties":{"a":{"minLength":-1}}}`, "at #/properties/a/minLength: must be ≥ 0"},
		{`{"multipleOf":0}`, "at #/multipleOf: must be > 0"},
		{`{"anyOf":[]}`, "at #/anyOf: needs at least 1 item"},
		{`{"properties":{"a":3}}`, "at #/properties/a: must be a boolean or object"},
		{`{"$ref":"#/$defs/missing"}`, `"schema#/$defs/missing" not found`},
		{`{"a":`, "not JSON"},
		{``, "not JSON"},
	} {
		_, err := Compile(json.RawMessage(c.schema))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compile(%.60s) = %v, want an error with %q", c.schema, err, c.want)
		}
	}
}

// Every draft mcpscope knows compiles, each with its own rules: draft-04's
// boolean exclusiveMinimum, $ref alone in draft-07.
func TestDrafts(t *testing.T) {
	for _, c := range []struct{ schema, value, want string }{
		{`{` + draft4URI + `"minimum":0,"exclusiveMinimum":true}`, `0`, "exclusiveMinimum@"},
		{`{"$schema":"http://json-schema.org/draft-06/schema#","exclusiveMinimum":0}`, `0`, "exclusiveMinimum@"},
		{`{` + draft7URI + `"$ref":"#/definitions/s","definitions":{"s":{"type":"string"}},"minLength":5}`, `"ab"`, ""},
		{`{` + draft2019URI + `"$ref":"#/$defs/s","$defs":{"s":{"type":"string"}},"minLength":5}`, `"ab"`, "minLength@"},
		{`{"$schema":"https://json-schema.org/draft/2020-12/schema","prefixItems":[{"type":"string"}]}`, `[1]`, "type@/0"},
	} {
		if got := summary(validate(t, c.schema, c.value)); got != c.want {
			t.Errorf("%s against %s: %q, want %q", c.value, c.schema, got, c.want)
		}
	}
}

// A schema text is compiled once and kept: the second Compile of the same
// text returns the same Schema, and an error is kept too.
func TestCompileCache(t *testing.T) {
	a, b := mustCompile(t, `{"type":"string","x-cache":1}`), mustCompile(t, `{"type":"string","x-cache":1}`)
	if a != b {
		t.Error("the same schema text compiled twice")
	}
	_, err1 := Compile(json.RawMessage(`{"$ref":"x.json"}`))
	_, err2 := Compile(json.RawMessage(`{"$ref":"x.json"}`))
	if err1 == nil || err1 != err2 {
		t.Errorf("errors %v and %v, want the same one kept", err1, err2)
	}
}
