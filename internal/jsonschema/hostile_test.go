package jsonschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Values nest at most MaxDepth levels; deeper ones are refused before
// any validation.
func TestValueDepth(t *testing.T) {
	s := mustCompile(t, `{"items":{"$ref":"#"}}`)
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if fails, err := s.Validate(json.RawMessage(ok)); err != nil || len(fails) != 0 {
		t.Errorf("%d levels: %v %v", MaxDepth, fails, err)
	}
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	if _, err := s.Validate(json.RawMessage(deep)); err == nil || !strings.Contains(err.Error(), "the value is nested deeper than 256 levels") {
		t.Errorf("100000 levels: %v", err)
	}
	if _, err := s.Validate(json.RawMessage(`{"a":1`)); err == nil || !strings.Contains(err.Error(), "the value is not JSON") {
		t.Errorf("broken value: %v", err)
	}
}

// A schema whose subschemas multiply (each applies the next twice) stops
// with an error once its bound of steps is spent.
func TestExponentialSchemaStops(t *testing.T) {
	defs := map[string]any{"d40": map[string]any{"type": "integer"}}
	for i := range 40 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"allOf": []any{next, next}}
	}
	b, _ := json.Marshal(map[string]any{"$ref": "#/$defs/d0", "$defs": defs})
	s := mustCompile(t, string(b))
	if _, err := s.Validate(json.RawMessage(`1`)); err == nil || !strings.Contains(err.Error(), "steps") {
		t.Errorf("Validate = %v, want the step bound", err)
	}
}

// A long chain of references compiles, and validating it stops at the
// nesting bound rather than exhausting the stack.
func TestLongRefChain(t *testing.T) {
	const n = 30000
	defs := make(map[string]any, n)
	for i := range n {
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
	}
	defs[fmt.Sprintf("d%d", n)] = true
	b, _ := json.Marshal(map[string]any{"$ref": "#/$defs/d0", "$defs": defs})
	s := mustCompile(t, string(b))
	if _, err := s.Validate(json.RawMessage(`1`)); err == nil || !strings.Contains(err.Error(), "nests more than") {
		t.Errorf("Validate = %v, want the nesting bound", err)
	}
}

// uniqueItems over a large array is a set lookup, not a comparison of
// every pair.
func TestUniqueItemsLarge(t *testing.T) {
	items := make([]string, 100001)
	for i := range 100000 {
		items[i] = fmt.Sprintf(`{"n":%d,"s":"v%d"}`, i, i)
	}
	items[100000] = `{"s":"v7","n":7.0}`
	fails := validate(t, `{"uniqueItems":true}`, "["+strings.Join(items, ",")+"]")
	if len(fails) != 1 || fails[0].Kind != (UniqueItems{Duplicates: [2]int{7, 100000}}) {
		t.Errorf("failures %v", fails)
	}
}

// Numbers with absurd exponents or many digits are compared without
// building them.
func TestHugeNumbers(t *testing.T) {
	runCases(t, []validateCase{
		{"exponent past int64", `{"maximum":1}`, `1e99999999999999999999999`, "maximum@"},
		{"tiny exponent", `{"exclusiveMinimum":0}`, `1e-99999999999999999999999`, ""},
		{"many digits", `{"multipleOf":3}`, strings.Repeat("9", 10000), ""},
		{"many digits not a multiple", `{"multipleOf":3}`, strings.Repeat("9", 10000) + "1", "multipleOf@"},
		{"a million digits", `{"multipleOf":7}`, strings.Repeat("7", 1000000), ""},
		{"integer with a huge exponent", `{"type":"integer","multipleOf":2}`, `1e999999999999`, ""},
		{"many digits integer", `{"type":"integer"}`, strings.Repeat("7", 20000) + ".0", ""},
	})
}

// Many const keywords applied to one large value compare it by a key
// computed once, not by walking it each time: the allocations grow with
// the value plus the schema, not with their product.
func TestManyConstsOnALargeValue(t *testing.T) {
	consts := make([]string, 200)
	for i := range consts {
		consts[i] = fmt.Sprintf(`{"not":{"const":{"n":%d}}}`, i)
	}
	s := mustCompile(t, `{"allOf":[`+strings.Join(consts, ",")+`]}`)
	large := json.RawMessage(`{"n":-1,"pad":[` + strings.Repeat(`"abcdefghij",`, 2000) + `0]}`)
	allocs := testing.AllocsPerRun(3, func() {
		if fails, err := s.Validate(large); len(fails) != 0 || err != nil {
			t.Fatalf("failures %v, %v", fails, err)
		}
	})
	if allocs > 50000 {
		t.Errorf("Validate allocates %.0f times, want it linear in the value and the schema (< 50000)", allocs)
	}
}

// A compiled schema is shared by goroutines validating at once.
func TestConcurrentValidate(t *testing.T) {
	s := mustCompile(t, fuzzSchemas[0])
	done := make(chan []*Failure)
	for i := range 8 {
		go func() {
			fails, _ := s.Validate(json.RawMessage(fmt.Sprintf(`{"a":"y","n":%d.25}`, i)))
			done <- fails
		}()
	}
	for range 8 {
		if fails := <-done; summary(fails) != "pattern@/a type@/n" {
			t.Errorf("failures %v", fails)
		}
	}
}
