package schemacheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// Failures are phrased for a person, with the instance location in front
// in Error and in ValidationError.
func TestMessages(t *testing.T) {
	for _, c := range []struct{ schema, value, want string }{
		{`{"type":"integer"}`, `"x"`, "must be an integer"},
		{`{"type":["string","null"]}`, `1`, "must be a string or null"},
		{`{"enum":["red","green",1,null]}`, `"blue"`, `must be one of "red", "green", 1, null`},
		{`{"enum":[0,1,2,3,4,5,6,7,8,9]}`, `10`, "must be one of 0, 1, 2, 3, 4, 5, 6, 7, … (10 in all)"},
		{`{"const":{"b":1,"a":[true]}}`, `1`, `must be {"a":[true],"b":1}`},
		{`{"pattern":"^a"}`, `"b"`, "must match the pattern ^a"},
		{`{"minLength":2}`, `"a"`, "must be at least 2 characters"},
		{`{"maxLength":1}`, `"ab"`, "must be at most 1 character"},
		{`{"minLength":1}`, `""`, "must be at least 1 character"},
		{`{"minimum":1.5}`, `1`, "must be ≥ 1.5"},
		{`{"maximum":10}`, `11`, "must be ≤ 10"},
		{`{"exclusiveMinimum":0}`, `0`, "must be > 0"},
		{`{"exclusiveMaximum":0.3333333333}`, `1`, "must be < 0.333333"},
		{`{"multipleOf":0.5}`, `0.3`, "must be a multiple of 0.5"},
		{`{"format":"email"}`, `"x"`, "not a valid email"},
		{`{"required":["a"]}`, `{}`, `missing required property "a"`},
		{`{"required":["a","b"]}`, `{}`, `missing required properties "a", "b"`},
		{`{"dependentRequired":{"card":["cvv"]}}`, `{"card":1}`, `needs "cvv" when "card" is given`},
		{`{"minProperties":2}`, `{}`, "needs at least 2 properties"},
		{`{"maxProperties":1}`, `{"a":1,"b":2}`, "allows at most 1 property"},
		{`{"additionalProperties":false}`, `{"a":1,"b":2}`, "unexpected property a, b"},
		{`{"unevaluatedProperties":false}`, `{"a":1}`, "unexpected property a"},
		{`{"propertyNames":{"maxLength":1}}`, `{"ab":1}`, `the property name "ab" is not allowed`},
		{`{"minItems":2}`, `[]`, "needs at least 2 items"},
		{`{"maxItems":1}`, `[1,2]`, "allows at most 1 item"},
		{`{"minItems":1}`, `[]`, "needs at least 1 item"},
		{`{"prefixItems":[{}],"items":false}`, `[1,2]`, "allows at most 1 item"},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{}],"additionalItems":false}`, `[1,2,3]`, "allows at most 1 item"},
		{`{"unevaluatedItems":false}`, `[1,2]`, "unexpected items 1, 2"},
		{`{"uniqueItems":true}`, `[1,2,1]`, "items 1 and 3 are the same"},
		{`{"contains":{"const":1}}`, `[]`, "needs an item of the required kind"},
		{`{"contains":{"const":1},"minContains":2}`, `[1]`, "needs at least 2 items of the required kind"},
		{`{"contains":{"const":1},"maxContains":1}`, `[1,1]`, "allows at most 1 item of the required kind"},
		{`{"anyOf":[{"type":"null"}]}`, `1`, "matches none of the allowed forms"},
		{`{"oneOf":[{},{}]}`, `1`, "matches more than one of the allowed forms"},
		{`{"not":{}}`, `1`, "matches a form that is not allowed"},
		{`false`, `1`, "not allowed"},
		{`{"properties":{"a/b":{"items":{"type":"string"}}}}`, `{"a/b":[1]}`, "/a~1b/0: must be a string"},
	} {
		fails := validate(t, c.schema, c.value)
		if len(fails) != 1 || fails[0].Error() != c.want {
			t.Errorf("%s against %s: %v, want %q", c.value, c.schema, fails, c.want)
		}
	}
	fails := validate(t, `{"properties":{"a":{"type":"string"},"b":{"minimum":3}}}`, `{"a":1,"b":2}`)
	if got := (&ValidationError{Failures: fails}).Error(); got != "/a: must be a string; /b: must be ≥ 3" {
		t.Errorf("ValidationError = %q", got)
	}
	if p := Pointer([]string{"a/b", "c~d", ""}); p != "/a~1b/c~0d/" {
		t.Errorf("Pointer = %q", p)
	}
	if !strings.HasPrefix(Decimal(nil), "?") {
		t.Error("Decimal(nil)")
	}
}

// validate compiles and validates, failing the test on an error.
func validate(t testing.TB, schema, value string) []*Failure {
	t.Helper()
	fails, err := mustCompile(t, schema).Validate(json.RawMessage(value))
	if err != nil {
		t.Fatalf("Validate(%s) against %s: %v", value, schema, err)
	}
	return fails
}
