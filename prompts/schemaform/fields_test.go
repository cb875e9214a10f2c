package schemaform_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// Typing into a string field sends exactly the text typed.
func TestStringField(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`, schemaform.Options{})
	typeText(f, `hi "there" <b> & ü`)
	wantValue(t, f, `{"message":"hi \"there\" <b> & ü"}`)
}

// Integers stay integers, numbers keep the digits typed, and both accept
// the usual spellings.
func TestNumberFields(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"integer"},"x":{"type":"number"}}}`
	for _, c := range []struct{ n, x, want string }{
		{"42", "3.50", `{"n":42,"x":3.50}`},
		{" -7 ", "1e3", `{"n":-7,"x":1e3}`},
		{"7.0", ".5", `{"n":7,"x":0.5}`},
		{"+12", "+2", `{"n":12,"x":2}`},
		{"1e3", "-0.25", `{"n":1000,"x":-0.25}`},
		{"12345678901234567890", "1.000000000000000000001", `{"n":12345678901234567890,"x":1.000000000000000000001}`},
	} {
		f := newForm(t, schema, schemaform.Options{})
		typeText(f, c.n)
		press(t, f, "tab")
		typeText(f, c.x)
		wantValue(t, f, c.want)
	}
}

// Text that is not a number is refused at its field, with a message.
func TestNumberFieldsRefuseText(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"integer"},"x":{"type":"number"}}}`
	for _, c := range []struct{ n, x, path, msg string }{
		{"2.5", "", "/n", "not an integer"},
		{"abc", "", "/n", "not an integer"},
		{"", "NaN", "/x", "not a number"},
		{"", "0x10", "/x", "not a number"},
		{"", "1e999", "/x", "not a number"},
	} {
		f := newForm(t, schema, schemaform.Options{})
		typeText(f, c.n)
		press(t, f, "tab")
		typeText(f, c.x)
		if _, err := f.Value(); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q/%q: Value error = %v, want %q", c.n, c.x, err, c.msg)
		}
		if errs := f.Validate(); !hasError(errs, c.path, c.msg) {
			t.Errorf("%q/%q: Validate = %v, want %s: %s", c.n, c.x, errs, c.path, c.msg)
		}
		if a := press(t, f, "ctrl+s"); a != schemaform.ActionNone {
			t.Errorf("%q/%q: ctrl+s = %v, want the submit refused", c.n, c.x, a)
		}
	}
}

// Fields left empty are not sent; a form with nothing filled is {}.
func TestEmptyOptionalFieldsOmitted(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{
		"s":{"type":"string"},"n":{"type":"number"},"b":{"type":"boolean"},
		"e":{"enum":["a","b"]},"m":{"type":"array","items":{"enum":["x","y"]}},
		"l":{"type":"array","items":{"type":"integer"}},
		"o":{"type":"object","properties":{"p":{"type":"string"}}}}}`, schemaform.Options{})
	wantValue(t, f, `{}`)
	press(t, f, "tab")
	typeText(f, "   ")
	wantValue(t, f, `{}`)
}

// Space toggles a boolean; del unsets it again so it is left out.
func TestBooleanToggle(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"ok":{"type":"boolean"}}}`, schemaform.Options{})
	for _, step := range []struct{ key, want string }{
		{"space", `{"ok":true}`},
		{"space", `{"ok":false}`},
		{"space", `{"ok":true}`},
		{"backspace", `{}`},
	} {
		press(t, f, step.key)
		wantValue(t, f, step.want)
	}
}

// Single choices from enum, titled oneOf and legacy enumNames: ←/→ move,
// space selects, the value sent is the option's const, the label shown is
// its title.
func TestChoiceFields(t *testing.T) {
	for _, c := range []struct{ name, prop, label, want string }{
		{"enum", `{"type":"string","enum":["red","green","blue"]}`, "green", `"green"`},
		{"numeric enum", `{"type":"integer","enum":[1,2,3]}`, "2", `2`},
		{"titled oneOf", `{"type":"string","oneOf":[{"const":"h1","title":"Superman"},{"const":"h2","title":"Green Lantern"},{"const":"h3","title":"Wonder Woman"}]}`, "Green Lantern", `"h2"`},
		{"enumNames", `{"type":"string","enum":["p1","p2","p3"],"enumNames":["Cats","Dogs","Birds"]}`, "Dogs", `"p2"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newForm(t, `{"type":"object","properties":{"c":`+c.prop+`}}`, schemaform.Options{})
			if !strings.Contains(goldentest.Plain(f.Render(80, 10)), c.label) {
				t.Errorf("render lacks the label %q:\n%s", c.label, goldentest.Plain(f.Render(80, 10)))
			}
			press(t, f, "right", "space")
			wantValue(t, f, `{"c":`+c.want+`}`)
			press(t, f, "left", "space")
			if got := value(t, f); got == `{"c":`+c.want+`}` || got == `{}` {
				t.Errorf("after ← space the value is %s, want the first option", got)
			}
			press(t, f, "space")
			wantValue(t, f, `{}`)
		})
	}
}

// Arrays of enum items are multi-selects: MCP's items.enum and titled
// items.anyOf; values come in option order.
func TestMultiSelect(t *testing.T) {
	for _, c := range []struct{ name, items, want string }{
		{"items.enum", `{"type":"string","enum":["Guitar","Piano","Violin"]}`, `["Guitar","Violin"]`},
		{"items.anyOf", `{"anyOf":[{"const":"f1","title":"Tuna"},{"const":"f2","title":"Salmon"},{"const":"f3","title":"Trout"}]}`, `["f1","f3"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newForm(t, `{"type":"object","properties":{"m":{"type":"array","items":`+c.items+`}}}`, schemaform.Options{})
			press(t, f, "right", "right", "space", "left", "left", "space")
			wantValue(t, f, `{"m":`+c.want+`}`)
			press(t, f, "space")
			if got := value(t, f); strings.Count(got, ",") != 0 {
				t.Errorf("after unselecting the first option the value is %s, want one item", got)
			}
		})
	}
}

// Arrays of primitives are typed comma-separated (or as a JSON array).
func TestListFields(t *testing.T) {
	for _, c := range []struct{ items, text, want string }{
		{`{"type":"integer"}`, "1, 2,3", `[1,2,3]`},
		{`{"type":"number"}`, "1.5,2", `[1.5,2]`},
		{`{"type":"string"}`, " a , b c ,", `["a","b c"]`},
		{`{"type":"string"}`, `["x,y", "z"]`, `["x,y","z"]`},
		{`{"type":"boolean"}`, "true, False", `[true,false]`},
	} {
		f := newForm(t, `{"type":"object","properties":{"l":{"type":"array","items":`+c.items+`}}}`, schemaform.Options{})
		typeText(f, c.text)
		wantValue(t, f, `{"l":`+c.want+`}`)
	}
	f := newForm(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"}}}}`, schemaform.Options{})
	typeText(f, "1, two")
	if errs := f.Validate(); !hasError(errs, "/l", `item 2 ("two"): not an integer`) {
		t.Errorf("Validate = %v, want the bad item named", errs)
	}
}

// The schema's defaults are prefilled for every kind, Options.Defaults win
// over them, and keys the form has no field for are kept.
func TestDefaultsPrefilled(t *testing.T) {
	schema := `{"type":"object","properties":{
		"s":{"type":"string","default":"It was a dark and stormy night."},
		"i":{"type":"integer","default":42},
		"x":{"type":"number","default":3.14},
		"b":{"type":"boolean","default":false},
		"e":{"type":"string","enum":["Monica","Rachel"],"default":"Rachel"},
		"t":{"type":"string","oneOf":[{"const":"h1","title":"Superman"},{"const":"h2","title":"Batman"}],"default":"h2"},
		"m":{"type":"array","items":{"type":"string","enum":["G","P","V"]},"default":["G","V"]},
		"l":{"type":"array","items":{"type":"string"},"default":["a","b,c"]},
		"o":{"type":"object","properties":{"p":{"type":"integer","default":1},"q":{"type":"string"}},"default":{"q":"from object"}}}}`
	f := newForm(t, schema, schemaform.Options{})
	wantValue(t, f, `{"s":"It was a dark and stormy night.","i":42,"x":3.14,"b":false,"e":"Rachel","t":"h2","m":["G","V"],"l":["a","b,c"],"o":{"p":1,"q":"from object"}}`)
	f = newForm(t, schema, schemaform.Options{Defaults: []byte(`{"i":7,"o":{"q":"given"},"extra":{"k":[1]}}`)})
	wantValue(t, f, `{"s":"It was a dark and stormy night.","i":7,"x":3.14,"b":false,"e":"Rachel","t":"h2","m":["G","V"],"l":["a","b,c"],"o":{"p":1,"q":"given"},"extra":{"k":[1]}}`)
	if !strings.Contains(goldentest.Plain(f.Render(80, 60)), "kept from the given values: extra") {
		t.Errorf("the kept key is not mentioned:\n%s", goldentest.Plain(f.Render(80, 60)))
	}
}

// A free JSON field reads JSON when the text is JSON, a string otherwise.
func TestFreeJSONField(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"a": [1, 2]}`, `{"a":[1,2]}`},
		{`12`, `12`},
		{`hello world`, `"hello world"`},
	} {
		f := newForm(t, `{"type":"object","properties":{"v":{}}}`, schemaform.Options{})
		typeText(f, c.text)
		wantValue(t, f, `{"v":`+c.want+`}`)
	}
}

// Nested objects are groups: tab walks into them, their value nests, an
// optional one left empty is omitted, a required one is at least {}.
func TestNestedObjects(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string"},
		"address":{"type":"object","properties":{
			"street":{"type":"string"},
			"geo":{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}}}},
			"required":["street"]},
		"note":{"type":"object","properties":{"text":{"type":"string"}}}},
		"required":["address"]}`
	f := newForm(t, schema, schemaform.Options{})
	wantValue(t, f, `{"address":{}}`)
	if errs := f.Validate(); !hasError(errs, "/address/street", "required") {
		t.Errorf("Validate = %v, want /address/street required", errs)
	}
	typeText(f, "Ada")
	press(t, f, "tab")
	typeText(f, "1 Main St")
	press(t, f, "tab")
	typeText(f, "51.5")
	press(t, f, "tab")
	typeText(f, "-0.12")
	wantValue(t, f, `{"name":"Ada","address":{"street":"1 Main St","geo":{"lat":51.5,"lon":-0.12}}}`)
	if errs := f.Validate(); len(errs) != 0 {
		t.Errorf("Validate = %v, want none", errs)
	}
	out := goldentest.Plain(f.Render(80, 40))
	if !strings.Contains(out, "\n    geo") || !strings.Contains(out, "\n      lat") || !strings.Contains(out, "\n    › lon") {
		t.Errorf("nested groups are not indented:\n%s", out)
	}
}
