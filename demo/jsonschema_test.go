package demo

import (
	"encoding/json"
	"strings"
	"testing"
)

// validateJSON names every failure at its JSON pointer, in words; a schema
// that does not compile, or a value that is not JSON, fails with the
// reason.
func TestValidateJSON(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer","maximum":10},"email":{"format":"email"}},"required":["name"]}`)
	for _, c := range []struct {
		schema json.RawMessage
		value  string
		want   string
	}{
		{schema, `{"name":"a","count":3,"email":"ada@example.com"}`, ""},
		{schema, `{"count":11,"email":"nope"}`, `missing required property "name"; /count: must be ≤ 10; /email: not a valid email`},
		{schema, `{"count":`, "the value is not JSON"},
		{json.RawMessage(`{"$ref":"https://example.com/s.json"}`), `1`, "the schema does not compile"},
	} {
		err := validateJSON(c.schema, json.RawMessage(c.value))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.value, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.value, err, c.want)
		}
	}
}
