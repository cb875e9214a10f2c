package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"
)

// draft7 and draft2019 put a $schema in front of a schema object.
const (
	draft7URI    = `"$schema":"http://json-schema.org/draft-07/schema#",`
	draft4URI    = `"$schema":"http://json-schema.org/draft-04/schema#",`
	draft2019URI = `"$schema":"https://json-schema.org/draft/2019-09/schema",`
)

// validateCase is a schema, a value and the failures wanted, summarised
// as "keyword@pointer" separated by spaces ("" when the value is valid).
type validateCase struct {
	name   string
	schema string
	value  string
	want   string
}

// mustCompile compiles a schema or fails the test.
func mustCompile(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("Compile(%s): %v", schema, err)
	}
	return s
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

// summary is "keyword@pointer" for each failure, in order.
func summary(fails []*Failure) string {
	parts := make([]string, len(fails))
	for i, f := range fails {
		parts[i] = f.Keyword + "@" + Pointer(f.Location)
	}
	return strings.Join(parts, " ")
}

// runCases checks each case's failures.
func runCases(t *testing.T, cases []validateCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fails := validate(t, c.schema, c.value)
			if got := summary(fails); got != c.want {
				t.Errorf("%s against %s: failures %q, want %q (%v)", c.value, c.schema, got, c.want, fails)
			}
		})
	}
}
