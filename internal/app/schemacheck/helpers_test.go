package schemacheck

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// draft7URI, draft4URI and draft2019URI put a $schema in front of a
// schema object.
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

// keyword names the keyword of a failure.
func keyword(f *Failure) string {
	switch f.Kind.(type) {
	case *kind.FalseSchema:
		return "false"
	case *kind.Not:
		return "not"
	case *kind.Dependency:
		return "dependencies"
	}
	p := f.Kind.KeywordPath()
	if len(p) == 0 {
		return "?"
	}
	return p[0]
}

// summary is "keyword@pointer" for each failure, in order.
func summary(fails []*Failure) string {
	parts := make([]string, len(fails))
	for i, f := range fails {
		parts[i] = keyword(f) + "@" + Pointer(f.Location)
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
