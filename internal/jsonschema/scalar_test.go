package jsonschema

import (
	"encoding/json"
	"math/big"
	"reflect"
	"testing"
)

// type accepts one name or several; an integer is a number without
// fraction, however written.
func TestType(t *testing.T) {
	runCases(t, []validateCase{
		{"string", `{"type":"string"}`, `"a"`, ""},
		{"not a string", `{"type":"string"}`, `1`, "type@"},
		{"integer", `{"type":"integer"}`, `3`, ""},
		{"1.0 is an integer", `{"type":"integer"}`, `1.0`, ""},
		{"1e2 is an integer", `{"type":"integer"}`, `1e2`, ""},
		{"1.5 is not", `{"type":"integer"}`, `1.5`, "type@"},
		{"integer is a number", `{"type":"number"}`, `3`, ""},
		{"null", `{"type":"null"}`, `null`, ""},
		{"boolean", `{"type":"boolean"}`, `0`, "type@"},
		{"array", `{"type":"array"}`, `{}`, "type@"},
		{"object", `{"type":"object"}`, `[]`, "type@"},
		{"union", `{"type":["string","null"]}`, `null`, ""},
		{"union refused", `{"type":["string","null"]}`, `false`, "type@"},
		{"draft-07", `{` + draft7URI + `"type":"integer"}`, `2.0`, ""},
	})
	fails := validate(t, `{"type":["integer","boolean"]}`, `"x"`)
	want := Type{Want: []string{"integer", "boolean"}, Got: "string"}
	if len(fails) != 1 || !reflect.DeepEqual(fails[0].Kind, want) {
		t.Errorf("failures %v, want %#v", fails, want)
	}
}

// enum and const compare as JSON: numbers by value, objects whatever their
// member order; the wanted values are reported as written.
func TestEnumAndConst(t *testing.T) {
	runCases(t, []validateCase{
		{"enum string", `{"enum":["a","b"]}`, `"b"`, ""},
		{"enum refused", `{"enum":["a","b"]}`, `"c"`, "enum@"},
		{"enum number by value", `{"enum":[1,2]}`, `1.0`, ""},
		{"enum exact", `{"enum":[0.1]}`, `0.10000000000000001`, "enum@"},
		{"enum object", `{"enum":[{"a":1,"b":[2]}]}`, `{"b":[2.0],"a":1}`, ""},
		{"enum null", `{"enum":[null]}`, `0`, "enum@"},
		{"enum false is not 0", `{"enum":[false]}`, `0`, "enum@"},
		{"const", `{"const":{"x":[1,"y"]}}`, `{"x":[1,"y"]}`, ""},
		{"const refused", `{"const":{"x":[1,"y"]}}`, `{"x":[1,"y"],"z":0}`, "const@"},
		{"const big integers", `{"const":123456789012345678901234567890}`, `123456789012345678901234567891`, "const@"},
		{"const in draft-07", `{` + draft7URI + `"const":"a"}`, `"b"`, "const@"},
	})
	fails := validate(t, `{"enum":["a",1.50,null,[true]]}`, `"z"`)
	want := Enum{Want: []any{"a", json.Number("1.50"), nil, []any{true}}}
	if len(fails) != 1 || !reflect.DeepEqual(fails[0].Kind, want) {
		t.Errorf("failures %#v, want %#v", fails, want)
	}
	fails = validate(t, `{"const":{"k":2}}`, `1`)
	if c, ok := fails[0].Kind.(Const); !ok || !reflect.DeepEqual(c.Want, map[string]any{"k": json.Number("2")}) {
		t.Errorf("const failure %#v", fails[0].Kind)
	}
}

// A huge enum is a set: looking a value up does not scan it.
func TestHugeEnum(t *testing.T) {
	vals := make([]int, 200000)
	for i := range vals {
		vals[i] = i * 2
	}
	b, _ := json.Marshal(map[string]any{"enum": vals})
	s := mustCompile(t, string(b))
	for v, want := range map[string]int{"399998": 0, "3": 1, "4.0": 0} {
		if fails, err := s.Validate(json.RawMessage(v)); err != nil || len(fails) != want {
			t.Errorf("%s: %v %v", v, fails, err)
		}
	}
}

// String lengths count code points; pattern is Go's regexp, unanchored.
func TestStringKeywords(t *testing.T) {
	runCases(t, []validateCase{
		{"minLength", `{"minLength":2}`, `"a"`, "minLength@"},
		{"minLength code points", `{"minLength":2}`, `"é"`, "minLength@"},
		{"maxLength code points", `{"maxLength":2}`, `"日本"`, ""},
		{"maxLength", `{"maxLength":2}`, `"abc"`, "maxLength@"},
		{"lengths ignore numbers", `{"maxLength":0}`, `12`, ""},
		{"pattern", `{"pattern":"^[A-Z]{3}$"}`, `"ABC"`, ""},
		{"pattern refused", `{"pattern":"^[A-Z]{3}$"}`, `"abc"`, "pattern@"},
		{"pattern unanchored", `{"pattern":"b"}`, `"abc"`, ""},
		{"lookahead not enforced", `{"pattern":"^(?=.*[0-9]).+$","minLength":4}`, `"abc"`, "minLength@"},
	})
	fails := validate(t, `{"minLength":3,"maxLength":1}`, `"ab"`)
	if !reflect.DeepEqual(fails[0].Kind, MinLength{Want: 3, Got: 2}) || !reflect.DeepEqual(fails[1].Kind, MaxLength{Want: 1, Got: 2}) {
		t.Errorf("failures %#v", fails)
	}
}

// Numeric bounds are exact, in every form: draft-04's booleans too.
func TestNumericKeywords(t *testing.T) {
	runCases(t, []validateCase{
		{"minimum", `{"minimum":1}`, `1`, ""},
		{"minimum refused", `{"minimum":1}`, `0.9999999999999999999`, "minimum@"},
		{"maximum", `{"maximum":10}`, `10.0`, ""},
		{"maximum refused", `{"maximum":10}`, `1e1000`, "maximum@"},
		{"exclusiveMinimum", `{"exclusiveMinimum":0}`, `0`, "exclusiveMinimum@"},
		{"exclusiveMinimum tiny", `{"exclusiveMinimum":0}`, `1e-1000`, ""},
		{"exclusiveMaximum", `{"exclusiveMaximum":0}`, `-0.0`, "exclusiveMaximum@"},
		{"negative", `{"minimum":-5}`, `-5.5`, "minimum@"},
		{"draft-04 exclusiveMinimum", `{` + draft4URI + `"minimum":0,"exclusiveMinimum":true}`, `0`, "exclusiveMinimum@"},
		{"draft-04 exclusiveMaximum false", `{` + draft4URI + `"maximum":0,"exclusiveMaximum":false}`, `0`, ""},
		{"multipleOf", `{"multipleOf":0.1}`, `0.3`, ""},
		{"multipleOf refused", `{"multipleOf":0.5}`, `0.3`, "multipleOf@"},
		{"multipleOf integer", `{"multipleOf":3}`, `1e20`, "multipleOf@"},
		{"multipleOf huge", `{"multipleOf":7}`, `7e100000000000`, ""},
		{"multipleOf fraction of integer", `{"multipleOf":0.01}`, `19.99`, ""},
		{"bounds ignore strings", `{"minimum":5}`, `"1"`, ""},
		{"beyond float64", `{"maximum":1.7976931348623157e308}`, `1.7976931348623158e308`, "maximum@"},
	})
	fails := validate(t, `{"minimum":0.25,"multipleOf":0.1}`, `0.15`)
	if m, ok := fails[0].Kind.(Minimum); !ok || m.Want.Cmp(big.NewRat(1, 4)) != 0 {
		t.Errorf("minimum failure %#v", fails[0].Kind)
	}
	if m, ok := fails[1].Kind.(MultipleOf); !ok || m.Want.Cmp(big.NewRat(1, 10)) != 0 {
		t.Errorf("multipleOf failure %#v", fails[1].Kind)
	}
}

// Numbers compare exactly whatever their spelling.
func TestNumberCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1", "1.0", 0}, {"10", "1e1", 0}, {"0.1", "1e-1", 0}, {"-0", "0", 0},
		{"2", "10", -1}, {"0.2", "0.123", 1}, {"-2", "-10", 1}, {"-1", "1", -1},
		{"1e400", "1e399", 1}, {"1e-400", "0", 1}, {"123.456", "123.4560001", -1},
		{"1E+2", "100", 0}, {"0.000", "-0e5", 0},
	} {
		a, err1 := parseNumber(c.a)
		b, err2 := parseNumber(c.b)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s, %s: %v %v", c.a, c.b, err1, err2)
		}
		if got := a.cmp(b); got != c.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Formats are asserted on strings; unknown formats pass.
func TestFormat(t *testing.T) {
	runCases(t, []validateCase{
		{"date", `{"format":"date"}`, `"2024-02-29"`, ""},
		{"date refused", `{"format":"date"}`, `"2023-02-29"`, "format@"},
		{"email", `{"format":"email"}`, `"ada@example.com"`, ""},
		{"email refused", `{"format":"email"}`, `"not-an-email"`, "format@"},
		{"format ignores numbers", `{"format":"email"}`, `3`, ""},
		{"unknown format", `{"format":"x-color"}`, `"red"`, ""},
		{"draft-07 format", `{` + draft7URI + `"format":"uuid"}`, `"nope"`, "format@"},
	})
	fails := validate(t, `{"format":"ipv4"}`, `"1.2.3"`)
	if !reflect.DeepEqual(fails[0].Kind, Format{Want: "ipv4"}) {
		t.Errorf("format failure %#v", fails[0].Kind)
	}
}

// When type, const, enum or format fails, the rest of that schema says
// nothing more about the value.
func TestFirstFailureAlone(t *testing.T) {
	runCases(t, []validateCase{
		{"type", `{"type":"string","enum":["a"],"minLength":5}`, `3`, "type@"},
		{"enum", `{"enum":["a"],"maxLength":0}`, `"bb"`, "enum@"},
		{"format", `{"format":"email","maxLength":3}`, `"nope"`, "format@"},
		{"others together", `{"minLength":5,"pattern":"^x"}`, `"ab"`, "minLength@ pattern@"},
	})
}
