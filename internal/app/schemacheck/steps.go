package schemacheck

import (
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxSteps bounds the subschemas one validation applies, so that a schema
// whose subschemas multiply (each applying the next twice) ends.
const maxSteps = 1 << 22

// maxSubschemas bounds the schema objects a document may hold: the
// library's compilation grows with the square of their number.
const maxSubschemas = 4096

// errTooManySteps stops a validation that spent its steps.
var errTooManySteps = errors.New("too many steps")

// stepsURL names the vocabulary that counts steps; no schema uses it.
const stepsURL = "urn:mcpscope:steps"

// steps counts the subschemas a validation of one Schema has applied. The
// validations of a Schema take turns.
type steps struct {
	mu    sync.Mutex
	done  int
	limit int // maxSteps but in tests
}

// countSteps makes every schema object c compiles count a step each time
// it is applied, on s.
func countSteps(c *jsonschema.Compiler, s *steps) {
	c.AssertVocabs()
	c.RegisterVocabulary(&jsonschema.Vocabulary{
		URL: stepsURL,
		Compile: func(*jsonschema.CompilerContext, map[string]any) (jsonschema.SchemaExt, error) {
			return s, nil
		},
	})
}

// Validate counts a step and stops the validation past maxSteps; run
// recovers.
func (s *steps) Validate(*jsonschema.ValidatorContext, any) {
	if s.done++; s.done > s.limit {
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
			err = fmt.Errorf("the validation stopped after %d steps: the schema applies too many subschemas", s.limit)
		case r != nil: // the library fails on a number big.Rat cannot hold (7e100000000000)
			err = fmt.Errorf("the value cannot be checked against the schema: %v", r)
		}
	}()
	return sch.Validate(inst)
}

// countObjects returns how many objects doc holds, stopping past limit.
func countObjects(doc any, limit int) int {
	n := 0
	var walk func(any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			n++
			for _, m := range v {
				walk(m)
			}
		case []any:
			for _, m := range v {
				walk(m)
			}
		}
	}
	walk(doc)
	return n
}
