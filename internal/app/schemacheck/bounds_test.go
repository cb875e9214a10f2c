package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// notJudged validates value against schema and wants an error wrapping
// ErrNotChecked that says why.
func notJudged(t *testing.T, s *Schema, value, why string) {
	t.Helper()
	fails, err := s.Validate(json.RawMessage(value))
	if !errors.Is(err, ErrNotChecked) || !strings.Contains(err.Error(), why) {
		t.Errorf("Validate(%.60s) = %d failures, %v; want it not checked: %s", value, len(fails), err, why)
	}
}

// repeat joins n copies of s with commas.
func repeat(s string, n int) string {
	return strings.TrimSuffix(strings.Repeat(s+",", n), ",")
}

// Boolean subschemas count among the schemas a document may hold.
func TestBooleanSubschemasCount(t *testing.T) {
	schema := `{"allOf":[` + repeat("false", maxSubschemas) + `]}`
	if _, err := Compile(json.RawMessage(schema)); err == nil || !strings.Contains(err.Error(), "objects and booleans") {
		t.Errorf("Compile of %d false subschemas = %v, want the bound", maxSubschemas, err)
	}
}

// A schema is counted before it applies its subschemas, one step for each:
// those that are false, that fail type at once or that are applied where a
// failure is all that is wanted (under not) are counted too.
func TestStepsCountEverySubschemaApplied(t *testing.T) {
	for _, c := range []struct{ name, schema, value string }{
		{"false subschemas", `{"allOf":[false,false,false,false]}`, `1`},
		{"items failing type", `{"items":{"type":"string"}}`, `[` + repeat("1", 20) + `]`},
		{"draft-07 $ref", `{` + draft7URI + `"items":{"$ref":"#/definitions/a"},"definitions":{"a":{"type":"string"}}}`, `[` + repeat("1", 20) + `]`},
	} {
		s := mustCompile(t, c.schema)
		s.steps.limit = 4
		notJudged(t, s, c.value, "stopped after 4 steps")
	}
}

// Subschemas that multiply where every one fails, under not, where the
// library skips what it would do after a failure, still stop at the step
// bound.
func TestMultiplyingFailuresStop(t *testing.T) {
	defs := map[string]any{"d40": map[string]any{"minItems": 5}}
	for i := range 40 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"minItems": 5, "$ref": next["$ref"], "items": next}
	}
	b, _ := json.Marshal(map[string]any{"not": map[string]any{"$ref": "#/$defs/d0"}, "$defs": defs})
	s := mustCompile(t, string(b))
	s.steps.limit = 1 << 16
	value := strings.Repeat("[", 20) + strings.Repeat("]", 20)
	notJudged(t, s, value, "stopped after 65536 steps")
}

// A value whose size times the schema's is past the budget is not checked,
// before the library starts; realistic ones are.
func TestWorkBudget(t *testing.T) {
	s := mustCompile(t, `{"items":{"allOf":[`+repeat("false", 4000)+`]}}`)
	notJudged(t, s, `[`+repeat("0", 100000)+`]`, "too many to check")

	rows := `[` + repeat(`{"id":12345,"name":"a name of some length","tags":["x","y"],"ok":true}`, 40000) + `]`
	s = mustCompile(t, `{"type":"array","items":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"ok":{"type":"boolean"}}}}`)
	if fails, err := s.Validate(json.RawMessage(rows)); err != nil || len(fails) != 0 {
		t.Errorf("%d bytes of rows: %d failures, %v", len(rows), len(fails), err)
	}
}

// A cycle of references that never moves into the value, which only the
// validation finds (a $dynamicRef resolved to the schema that applied it),
// is reported as a schema that cannot check anything, not as a failure of
// the value.
func TestRefCycleNotJudged(t *testing.T) {
	s := mustCompile(t, `{"$dynamicAnchor":"n","$ref":"https://mcpscope.invalid/y","$defs":{`+
		`"x":{"$id":"https://mcpscope.invalid/x","$dynamicAnchor":"n"},`+
		`"y":{"$id":"https://mcpscope.invalid/y","allOf":[{"$dynamicRef":"https://mcpscope.invalid/x#n"}]}}}`)
	notJudged(t, s, `{"a":1}`, "refers to itself")
}

// Numbers with too many digits or too large an exponent are not compared,
// in the value or in the schema; what is merely large still is, at once.
func TestHugeNumbers(t *testing.T) {
	for _, schema := range []string{`{"multipleOf":7}`, `{"type":"integer"}`, `{"const":1}`, `{"enum":[1,2]}`, `{"uniqueItems":true}`} {
		s := mustCompile(t, schema)
		notJudged(t, s, `[1e999999,1e999999]`, "too large to compare")
		notJudged(t, s, `1e999999`, "too large to compare")
		notJudged(t, s, `-1E-999999`, "too large to compare")
		notJudged(t, s, `1`+strings.Repeat("0", maxDigits+1), "too large to compare")
	}
	if _, err := Compile(json.RawMessage(`{"const":1e999999}`)); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Compile of a huge const = %v", err)
	}
	s := mustCompile(t, `{"maximum":1e9999}`)
	if fails, err := s.Validate(json.RawMessage(`[1e-9999,1e9999]`)); err != nil || len(fails) != 0 {
		t.Errorf("large numbers: %v %v", fails, err)
	}
}

// The cache keeps at most cacheBytes of schema texts, and none over
// maxCachedText.
func TestCompileCacheBytes(t *testing.T) {
	big := `{"description":"` + strings.Repeat("x", maxCachedText) + `"}`
	if mustCompile(t, big) == mustCompile(t, big) {
		t.Error("a schema text over the bound was kept")
	}
	pad := strings.Repeat("y", maxCachedText-100)
	for i := range 2 * cacheBytes / len(pad) {
		mustCompile(t, fmt.Sprintf(`{"description":"%s","x-n":%d}`, pad, i))
		cacheMu.Lock()
		used := cacheUsed
		cacheMu.Unlock()
		if used > cacheBytes {
			t.Fatalf("the cache holds %d bytes of texts", used)
		}
	}
}

// Two false schemas refusing the same array's items are two failures, each
// with its own count.
func TestFalseItemsOfTwoSchemas(t *testing.T) {
	s := mustCompile(t, `{"allOf":[{"prefixItems":[{}],"items":false},{"prefixItems":[{},{}],"items":false}]}`)
	fails, err := s.Validate(json.RawMessage(`[1,2,3]`))
	var got []string
	for _, f := range fails {
		got = append(got, f.Error())
	}
	if want := "allows at most 1 item|allows at most 2 items"; err != nil || strings.Join(got, "|") != want {
		t.Errorf("Validate = %q %v, want %q", got, err, want)
	}
}

// A name propertyNames refuses is reported at the object that has it, when
// another object at the same depth has it too.
func TestPropertyNamesAtTheirObject(t *testing.T) {
	s := mustCompile(t, `{"properties":{"b":{"propertyNames":{"maxLength":1}}}}`)
	for range 20 { // the library walks the object in a random order
		fails, err := s.Validate(json.RawMessage(`{"a":{"xx":1},"b":{"xx":2},"c":{"xx":3}}`))
		if err != nil || summary(fails) != "propertyNames@/b" {
			t.Fatalf("Validate = %q %v, want propertyNames@/b", summary(fails), err)
		}
	}
}

// A schema only a $dynamicRef reaches counts its steps too.
func TestDynamicTargetCounted(t *testing.T) {
	schema := `{"$defs":{"x/a b%~":{"$dynamicAnchor":"n","allOf":[false,false,false]},` +
		`"y":{"$id":"https://mcpscope.invalid/y","$dynamicAnchor":"n"}},` +
		`"items":{"$dynamicRef":"https://mcpscope.invalid/y#n"}}`
	s := mustCompile(t, schema)
	if fails, err := s.Validate(json.RawMessage(`[1]`)); err != nil || len(fails) == 0 {
		t.Fatalf("Validate = %v %v, want the anchored schema applied", fails, err)
	}
	s.steps.limit = 12
	notJudged(t, s, `[1,2,3]`, "stopped after 12 steps")
}

// A schema only a $dynamicRef reaches compiles as the others do: a pattern
// Go cannot compile is not enforced there either.
func TestDynamicTargetPattern(t *testing.T) {
	schema := `{"$defs":{"x":{"$dynamicAnchor":"n","pattern":"(?=a)","maxLength":1}},` +
		`"items":{"$dynamicRef":"#n"}}`
	if got := summary(validate(t, schema, `["b","bb"]`)); got != "maxLength@/1" {
		t.Errorf("failures %q, want maxLength@/1", got)
	}
}

// A chain of subschemas applied in place that comes back where it started
// does not compile, wherever it is; one that moves into the value does.
func TestRefCycleDoesNotCompile(t *testing.T) {
	for _, schema := range []string{
		`{"$ref":"#"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`,
		`{"properties":{"a":{"$ref":"#/properties/a"}}}`,
		`{"items":{"not":{"anyOf":[{"$ref":"#/items"}]}}}`,
		`{` + draft7URI + `"items":{"$ref":"#/items"}}`,
	} {
		if _, err := Compile(json.RawMessage(schema)); err == nil || !strings.Contains(err.Error(), "refers to itself without end") {
			t.Errorf("Compile(%s) = %v, want the cycle", schema, err)
		}
	}
	mustCompile(t, `{"properties":{"a":{"$ref":"#"}},"items":{"$ref":"#"}}`)
}
