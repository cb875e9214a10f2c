package schemacheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// mustCompile compiles a schema or fails the test.
func mustCompile(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("Compile(%.200s): %v", schema, err)
	}
	return s
}

// A value nested past what encoding/json reads is refused before any
// validation, with the reason.
func TestValueDepth(t *testing.T) {
	s := mustCompile(t, `{"items":{"$ref":"#"}}`)
	ok := strings.Repeat("[", 256) + strings.Repeat("]", 256)
	if fails, err := s.Validate(json.RawMessage(ok)); err != nil || len(fails) != 0 {
		t.Errorf("256 levels: %v %v", fails, err)
	}
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	if _, err := s.Validate(json.RawMessage(deep)); err == nil || !strings.Contains(err.Error(), "the value is not JSON") {
		t.Errorf("100000 levels: %v", err)
	}
	if _, err := s.Validate(json.RawMessage(`{"a":1`)); err == nil || !strings.Contains(err.Error(), "the value is not JSON") {
		t.Errorf("broken value: %v", err)
	}
}

// A schema whose subschemas multiply (each applies the next twice) stops
// with an error once its bound of steps (lowered here) is spent.
func TestExponentialSchemaStops(t *testing.T) {
	defs := map[string]any{"d40": map[string]any{"type": "integer"}}
	for i := range 40 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"allOf": []any{next, next}}
	}
	b, _ := json.Marshal(map[string]any{"$ref": "#/$defs/d0", "$defs": defs})
	s := mustCompile(t, string(b))
	s.steps.limit = 1 << 16
	if _, err := s.Validate(json.RawMessage(`1`)); err == nil || !strings.Contains(err.Error(), "stopped after 65536 steps") {
		t.Errorf("Validate = %v, want the step bound", err)
	}
}

// A long chain of references compiles and validates without exhausting
// the stack; a schema of more objects than the bound does not compile.
func TestLongRefChain(t *testing.T) {
	if _, err := Compile(json.RawMessage(chain(maxSubschemas + 1))); err == nil || !strings.Contains(err.Error(), "objects") {
		t.Errorf("Compile of %d objects = %v, want the bound", maxSubschemas+1, err)
	}
	s := mustCompile(t, chain(maxSubschemas-2))
	if fails, err := s.Validate(json.RawMessage(`1`)); err != nil || len(fails) != 0 {
		t.Errorf("Validate = %v %v", fails, err)
	}
}

// chain is a schema of n references, each to the next, the last to true.
func chain(n int) string {
	defs := make(map[string]any, n)
	for i := range n {
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
	}
	defs[fmt.Sprintf("d%d", n)] = true
	b, _ := json.Marshal(map[string]any{"$ref": "#/$defs/d0", "$defs": defs})
	return string(b)
}

// A cycle of references that never moves into the value ends with an
// error instead of looping.
func TestRefCycle(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`))
	var fails []*Failure
	if err == nil {
		fails, err = s.Validate(json.RawMessage(`1`))
	}
	if err == nil && len(fails) == 0 {
		t.Error("a cycle of references neither fails to compile nor to validate")
	}
	for _, f := range fails {
		t.Log(f.Error())
	}
}

// A number too large for the library's arithmetic is an error, not a
// crash.
func TestHugeNumber(t *testing.T) {
	s := mustCompile(t, `{"multipleOf":7}`)
	if _, err := s.Validate(json.RawMessage(`7e100000000000`)); err == nil || !strings.Contains(err.Error(), "cannot be checked") {
		t.Errorf("Validate = %v, want an error", err)
	}
}
