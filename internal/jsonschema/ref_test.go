package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"
)

// References inside the document: JSON pointers with their escapes, $id
// and $anchor, and the draft-07 rule that $ref stands alone.
func TestRefs(t *testing.T) {
	runCases(t, []validateCase{
		{"root", `{"properties":{"child":{"$ref":"#"}},"type":"object"}`, `{"child":{"child":1}}`, "type@/child/child"},
		{"$defs", `{"$ref":"#/$defs/name","$defs":{"name":{"type":"string"}}}`, `1`, "type@"},
		{"definitions", `{"properties":{"a":{"$ref":"#/definitions/n"}},"definitions":{"n":{"minimum":3}}}`, `{"a":1}`, "minimum@/a"},
		{"escaped ~0 ~1", `{"$ref":"#/$defs/a~1b~0c","$defs":{"a/b~c":{"type":"null"}}}`, `1`, "type@"},
		{"percent-encoded", `{"$ref":"#/$defs/a%20b%25","$defs":{"a b%":{"type":"null"}}}`, `1`, "type@"},
		{"into an array", `{"$ref":"#/allOf/1","allOf":[{},{"type":"null"}]}`, `null`, ""},
		{"unknown place", `{"$ref":"#/components/x","components":{"x":{"type":"null"}}}`, `1`, "type@"},
		{"$anchor", `{"$ref":"#leaf","$defs":{"l":{"$anchor":"leaf","type":"string"}}}`, `1`, "type@"},
		{"$id", `{"$id":"http://example.com/root.json","$ref":"item.json","$defs":{"i":{"$id":"item.json","type":"string"}}}`, `1`, "type@"},
		{"$id then pointer", `{"$id":"http://example.com/r","$ref":"http://example.com/r#/$defs/a","$defs":{"a":{"const":1}}}`, `2`, "const@"},
		{"relative to embedded $id", `{"$defs":{"e":{"$id":"http://x.test/e","$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}},"$ref":"http://x.test/e"}`, `1`, "type@"},
		{"draft-07 $id anchor", `{` + draft7URI + `"$ref":"#x","definitions":{"a":{"$id":"#x","type":"string"}}}`, `1`, "type@"},
		{"2019-09 $recursiveRef", `{` + draft2019URI + `"properties":{"c":{"$recursiveRef":"#"}},"maxProperties":1}`, `{"c":{"c":{},"d":1}}`, "maxProperties@/c"},
		{"2020-12 $dynamicRef", `{"$dynamicAnchor":"n","properties":{"c":{"$dynamicRef":"#n"}},"maxProperties":1}`, `{"c":{"c":{},"d":1}}`, "maxProperties@/c"},
		{"2020-12 siblings apply", `{"$ref":"#/$defs/s","maxLength":2,"$defs":{"s":{"type":"string"}}}`, `"abc"`, "maxLength@"},
		{"draft-07 siblings ignored", `{` + draft7URI + `"$ref":"#/definitions/s","maxLength":2,"definitions":{"s":{"type":"string"}}}`, `"abc"`, ""},
		{"draft-07 root ref beside definitions", `{` + draft7URI + `"$ref":"#/definitions/T","definitions":{"T":{"type":"object","required":["q"]}}}`, `{}`, "required@"},
		{"recursion through the value", `{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"$ref":"#/$defs/n"}`, `{"k":{"k":{"z":1}}}`, "additionalProperties@/k/k"},
	})
}

// What cannot compile says where and why.
func TestCompileErrors(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"$ref":"other.json"}`, "names another document"},
		{`{"$ref":"https://example.com/s.json#/a"}`, "names another document"},
		{`{"$ref":"#/$defs/missing"}`, `nothing in the schema is at "/$defs/missing"`},
		{`{"$ref":"#nowhere"}`, `no schema has the anchor "nowhere"`},
		{`{"$schema":"https://example.com/unknown-dialect"}`, "is not a JSON Schema draft"},
		{`{"$schema":3}`, "$schema must be a string"},
		{`{"type":"strin"}`, `#/type: type names "strin"`},
		{`{"properties":{"a":{"minLength":-1}}}`, "at #/properties/a/minLength: minLength must be a non-negative integer"},
		{`{"minLength":1.5}`, "non-negative integer"},
		{`{"multipleOf":0}`, "must be above 0"},
		{`{"minimum":"1"}`, "minimum must be a number"},
		{`{"minimum":1e100000}`, "out of range"},
		{`{"maximum":` + strings.Repeat("1", 1001) + `}`, "out of range"},
		{`{"required":[1]}`, "array of strings"},
		{`{"anyOf":[]}`, "non-empty array"},
		{`{"properties":{"a":3}}`, "at #/properties/a: a schema is an object or a boolean"},
		{`{"pattern":1}`, "pattern must be a string"},
		{`{"$defs":{"a":{"$id":"http://x.test/a"},"b":{"$id":"http://x.test/a"}}}`, "have the same URI"},
		{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, "#/$defs/a → #/$defs/b → #/$defs/a"},
		{`{"$ref":"#"}`, "applies to itself"},
		{`{"allOf":[{"anyOf":[{"not":{"$ref":"#"}}]}]}`, "applies to itself"},
		{`{"if":{"$ref":"#/$defs/x"},"$defs":{"x":{"then":true,"if":{"$ref":"#"}}}}`, "applies to itself"},
		{`{"a":`, "not JSON"},
		{`{} {}`, "more data follows"},
		{``, "no JSON value"},
		{strings.Repeat("[", 300) + strings.Repeat("]", 300), "nested deeper than 256"},
	} {
		_, err := Compile(json.RawMessage(c.schema))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compile(%.60s) = %v, want an error with %q", c.schema, err, c.want)
		}
	}
}
