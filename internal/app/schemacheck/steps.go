package schemacheck

import (
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxSteps bounds the subschemas one validation applies, so that a schema
// whose subschemas multiply (each applying the next twice) ends, and so
// that the failures it keeps are bounded too (to about 200 MB at worst). A
// tool's result of 2.7 MB (40,000 objects of four members) takes 560,000.
const maxSteps = 1 << 21

// maxSubschemas bounds the schemas a document may hold, objects and
// booleans: the library's compilation grows with the square of their
// number.
const maxSubschemas = 4096

// errTooManySteps stops a validation that spent its steps.
var errTooManySteps = errors.New("too many steps")

// stepsURL names the vocabulary that marks the schemas a Compile made; no
// schema uses it.
const stepsURL = "urn:mcpscope:steps"

// steps counts the subschemas a validation of one Schema has applied. The
// validations of a Schema take turns.
type steps struct {
	mu    sync.Mutex
	done  int
	limit int // maxSteps but in tests
}

// ours marks a schema object compiled by this package's compiler, as
// opposed to a meta-schema the library shares between compilers.
type ours struct{}

// Validate does nothing: steps are counted by countSteps's format, which
// the library checks before it applies any subschema.
func (ours) Validate(*jsonschema.ValidatorContext, any) {}

// markOurs makes every schema object c compiles carry ours.
func markOurs(c *jsonschema.Compiler) {
	c.AssertVocabs()
	c.RegisterVocabulary(&jsonschema.Vocabulary{
		URL: stepsURL,
		Compile: func(*jsonschema.CompilerContext, map[string]any) (jsonschema.SchemaExt, error) {
			return ours{}, nil
		},
	})
}

// add counts n steps and stops the validation past the limit; run
// recovers.
func (s *steps) add(n int) {
	if s.done += n; s.done > s.limit {
		panic(errTooManySteps)
	}
}

// run validates inst with sch, its steps counted afresh. A panic of the
// library is an error, never a crash.
func (s *steps) run(sch *jsonschema.Schema, inst any) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = 0
	defer func() {
		switch r := recover(); {
		case r == errTooManySteps:
			err = notChecked("the validation stopped after %d steps: the schema applies too many subschemas", s.limit)
		case r != nil:
			err = notChecked("%v", r)
		}
	}()
	return sch.Validate(inst)
}

// countSteps makes each schema object reachable from roots that this
// package compiled count, each time it is applied, one step and one more
// for each subschema it is about to apply to the value, on st.
//
// The count rides on the schema's format, which the library checks before
// $ref and every applicator: a schema applied is counted before it does
// any work, whatever fails later, and one that fails type, const or enum
// first applies nothing. A boolean schema applies nothing either; its
// parent counted it. It returns how many schemas, booleans included,
// roots reach.
func countSteps(roots []*jsonschema.Schema, st *steps) int {
	seen := map[*jsonschema.Schema]bool{}
	var visit func(*jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		if seen[s] {
			return
		}
		seen[s] = true
		if s.Bool != nil || !marked(s) {
			return
		}
		w := weightOf(s)
		format := s.Format
		s.Format = &jsonschema.Format{Name: formatName(format), Validate: func(v any) error {
			st.add(w.of(v))
			if format != nil {
				return format.Validate(v)
			}
			return nil
		}}
		eachSubschema(s, func(sub *jsonschema.Schema, _ bool) { visit(sub) })
	}
	for _, root := range roots {
		visit(root)
	}
	return len(seen)
}

// marked reports whether s carries ours.
func marked(s *jsonschema.Schema) bool {
	for _, e := range s.Extensions {
		if _, ok := e.(ours); ok {
			return true
		}
	}
	return false
}

// formatName is f's name, "" for none.
func formatName(f *jsonschema.Format) string {
	if f == nil {
		return ""
	}
	return f.Name
}

// notChecked is an error wrapping ErrNotChecked: "the value cannot be
// checked against the schema: " and why.
func notChecked(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotChecked, fmt.Sprintf(format, args...))
}
