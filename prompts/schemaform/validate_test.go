package schemaform_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// Each constraint is checked by the schema library and phrased for people,
// at the field's JSON pointer.
func TestValidationMessages(t *testing.T) {
	schema := `{"type":"object","properties":{
		"code":{"type":"string","pattern":"^[A-Z]{3}$"},
		"name":{"type":"string","minLength":2,"maxLength":5},
		"n":{"type":"integer","minimum":1,"maximum":10},
		"x":{"type":"number","exclusiveMinimum":0,"multipleOf":0.5},
		"mail":{"type":"string","format":"email"},
		"day":{"type":"string","format":"date"},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":2}},
		"required":["code","n"]}`
	for _, c := range []struct {
		field int // tabs from the first field
		text  string
		path  string
		msg   string
	}{
		{0, "abc", "/code", "must match the pattern ^[A-Z]{3}$"},
		{1, "A", "/name", "must be at least 2 characters"},
		{1, "Adalovelace", "/name", "must be at most 5 characters"},
		{2, "0", "/n", "must be ≥ 1"},
		{2, "11", "/n", "must be ≤ 10"},
		{3, "0", "/x", "must be > 0"},
		{3, "0.3", "/x", "must be a multiple of 0.5"},
		{4, "not-an-email", "/mail", "not a valid email"},
		{5, "2026-13-45", "/day", "not a date: the month must be 01 to 12"},
		{6, " ", "/tags", "needs at least 2 items"},
	} {
		f := newForm(t, schema, schemaform.Options{})
		for range c.field {
			press(t, f, "tab")
		}
		typeText(f, c.text)
		errs := f.Validate()
		if !hasError(errs, c.path, c.msg) {
			t.Errorf("%s = %q: Validate = %v, want %s: %s", c.path, c.text, errs, c.path, c.msg)
		}
		if c.field != 0 && !hasError(errs, "/code", "required") {
			t.Errorf("%s = %q: Validate = %v, want /code required", c.path, c.text, errs)
		}
	}
}

// An enum is enforced by the schema even when the value comes from the
// JSON editor, where anything can be typed.
func TestValidationEnum(t *testing.T) {
	e, err := schemaform.NewJSONEditor([]byte(`{"type":"object","properties":{"color":{"enum":["red","green"]}}}`), []byte(`{"color":"purple"}`))
	if err != nil {
		t.Fatal(err)
	}
	if errs := e.Validate(); !hasError(errs, "/color", `must be one of "red", "green"`) {
		t.Errorf("Validate = %v, want the enum listed at /color", errs)
	}
}

// Submitting with errors is refused: each error shows at its field, the
// focus goes to the first one, the errors follow the edits, and the form
// submits once they are fixed.
func TestSubmitRefusedUntilFixed(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{
		"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name","age"]}`, schemaform.Options{})
	press(t, f, "tab")
	typeText(f, "-3")
	if a := press(t, f, "ctrl+s"); a != schemaform.ActionNone {
		t.Fatalf("ctrl+s with errors = %v, want none", a)
	}
	out := goldentest.Plain(f.Render(60, 20))
	want := "› name *  string\n    >\n    ✗ required\n  age *  integer, ≥ 0\n    > -3\n    ✗ must be ≥ 0"
	if !strings.Contains(out, want) {
		t.Errorf("errors are not shown at their fields (focus on the first):\n%s\nwant within it:\n%s", out, want)
	}
	typeText(f, "Ada")
	if out := goldentest.Plain(f.Render(60, 20)); strings.Contains(out, "required") || !strings.Contains(out, "must be ≥ 0") {
		t.Errorf("errors did not follow the edit:\n%s", out)
	}
	press(t, f, "tab", "backspace", "backspace")
	typeText(f, "36")
	if a := press(t, f, "enter"); a != schemaform.ActionSubmit {
		t.Fatalf("enter on the last field with no errors = %v, want submit (errors %v)", a, f.Validate())
	}
	wantValue(t, f, `{"name":"Ada","age":36}`)
}

// Enter moves to the next field and submits on the last; esc cancels;
// ctrl+s submits from anywhere; up/down and shift+tab move too.
func TestKeys(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}}}`
	f := newForm(t, schema, schemaform.Options{})
	for _, k := range []string{"enter", "down", "up", "shift+tab", "tab"} {
		if a := press(t, f, k); a != schemaform.ActionNone {
			t.Fatalf("%s = %v, want none", k, a)
		}
	}
	typeText(f, "on b")
	press(t, f, "down")
	typeText(f, "on c")
	wantValue(t, f, `{"b":"on b","c":"on c"}`)
	if a := press(t, f, "enter"); a != schemaform.ActionSubmit {
		t.Errorf("enter on the last field = %v, want submit", a)
	}
	if a := press(t, f, "shift+tab", "ctrl+s"); a != schemaform.ActionSubmit {
		t.Errorf("ctrl+s = %v, want submit", a)
	}
	if a := press(t, f, "esc"); a != schemaform.ActionCancel {
		t.Errorf("esc = %v, want cancel", a)
	}
}

// The help lists the keys that apply to the focused field.
func TestKeyMapFollowsFocus(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"s":{"type":"string"},"c":{"enum":["x","y"]}}}`, schemaform.Options{})
	helpOf := func() string {
		var b strings.Builder
		for _, k := range f.KeyMap().ShortHelp() {
			b.WriteString(k.Help().Key + " " + k.Help().Desc + "; ")
		}
		return b.String()
	}
	if h := helpOf(); !strings.Contains(h, "ctrl+s submit") || strings.Contains(h, "←/→") {
		t.Errorf("help on a text field = %q", h)
	}
	press(t, f, "tab")
	if h := helpOf(); !strings.Contains(h, "←/→ space choose") {
		t.Errorf("help on a choice = %q", h)
	}
	press(t, f, "ctrl+e")
	if h := helpOf(); !strings.Contains(h, "ctrl+e back to the form") {
		t.Errorf("help in the JSON editor = %q", h)
	}
}

// A oneOf/anyOf of constraints at the top (one of phone or email is
// required) is reported once, naming the alternatives.
func TestValidationAlternatives(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"phone":{"type":"string"},"email":{"type":"string"}},
		"anyOf":[{"required":["phone"]},{"required":["email"]}]}`, schemaform.Options{})
	errs := f.Validate()
	if len(errs) != 1 || errs[0].Path != "" || !strings.Contains(errs[0].Message, "/phone: required") || !strings.Contains(errs[0].Message, "/email: required") {
		t.Errorf("Validate = %v, want one error naming both alternatives", errs)
	}
	press(t, f, "ctrl+s")
	if out := goldentest.Plain(f.Render(80, 10)); !strings.HasPrefix(out, "✗ ") {
		t.Errorf("an error about the whole object is not on top:\n%s", out)
	}
	press(t, f, "tab")
	typeText(f, "ada@example.com")
	if errs := f.Validate(); len(errs) != 0 {
		t.Errorf("Validate = %v after filling one alternative", errs)
	}
}

// A schema the library cannot compile (here an unknown $schema, which is
// never fetched) still gives a form, which says it does not validate.
func TestSchemaThatDoesNotCompile(t *testing.T) {
	f := newForm(t, `{"$schema":"https://example.com/unknown-dialect","type":"object","properties":{"a":{"type":"string","minLength":3}}}`, schemaform.Options{})
	if f.SchemaError() == nil || f.Fallback() != "" {
		t.Fatalf("SchemaError() = %v, Fallback() = %q; want a form without validation", f.SchemaError(), f.Fallback())
	}
	typeText(f, "x")
	if errs := f.Validate(); len(errs) != 0 {
		t.Errorf("Validate = %v without a compiled schema", errs)
	}
	if out := goldentest.Plain(f.Render(80, 10)); !strings.Contains(out, "not validated here") {
		t.Errorf("the form does not say it is not validated:\n%s", out)
	}
}

// A pattern Go's regexp cannot compile (ECMAScript lookahead) is not
// enforced; the other keywords of the schema still are.
func TestECMAScriptPatternNotEnforced(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"pw":{"type":"string","pattern":"^(?=.*[0-9]).+$","minLength":4}}}`, schemaform.Options{})
	if f.SchemaError() != nil {
		t.Fatalf("SchemaError() = %v", f.SchemaError())
	}
	typeText(f, "abc")
	if errs := f.Validate(); len(errs) != 1 || !hasError(errs, "/pw", "at least 4") {
		t.Errorf("Validate = %v, want only the length", errs)
	}
}

// Light and dark styles draw the same text.
func TestLightAndDark(t *testing.T) {
	dark := newForm(t, toolSchema, schemaform.Options{Dark: true})
	light := newForm(t, toolSchema, schemaform.Options{})
	if goldentest.Plain(dark.Render(72, 30)) != goldentest.Plain(light.Render(72, 30)) {
		t.Error("the text differs between light and dark")
	}
	if dark.Render(72, 30) == light.Render(72, 30) {
		t.Error("light and dark draw the same colours")
	}
	light.SetDark(true)
	if light.Render(72, 30) != dark.Render(72, 30) {
		t.Error("SetDark(true) does not give the dark render")
	}
}

// Every keyword is phrased for people, those about objects, arrays and
// combinations too, at the pointer of the value concerned.
func TestValidationMessagesOfStructure(t *testing.T) {
	e, err := schemaform.NewJSONEditor([]byte(`{"type":"object","minProperties":6,
		"dependentRequired":{"card":["cvv"]},
		"properties":{"card":{"type":"string"},
			"tags":{"type":"array","contains":{"const":"urgent"},"uniqueItems":true},
			"level":{"enum":["low",null]},
			"note":{"not":{"const":""}},
			"meta":{"type":"object","propertyNames":{"maxLength":3}}}}`),
		[]byte(`{"card":"4111","tags":["a","a"],"level":"high","note":"","meta":{"long":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	errs := e.Validate()
	for _, want := range []struct{ path, msg string }{
		{"", "needs at least 6 properties"},
		{"", `needs "cvv" when "card" is given`},
		{"/tags", "items 1 and 2 are the same"},
		{"/tags", "needs an item of the required kind"},
		{"/level", `must be one of "low", null`},
		{"/note", "matches a form that is not allowed"},
		{"/meta", `the property name "long" is not allowed`},
	} {
		if !hasError(errs, want.path, want.msg) {
			t.Errorf("Validate = %v, want %s: %s", errs, want.path, want.msg)
		}
	}
}

// A reference to another document is never fetched: the form says the
// schema does not compile, and why.
func TestRemoteRefDoesNotCompile(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`, schemaform.Options{})
	if err := f.SchemaError(); err == nil || !strings.Contains(err.Error(), "the schema does not compile") || !strings.Contains(err.Error(), "another document") {
		t.Errorf("SchemaError() = %v", err)
	}
}

// A value the schema cannot check (here the schema refers to itself
// without end) is not refused, as with a schema that does not compile.
func TestValueThatCannotBeChecked(t *testing.T) {
	e, err := schemaform.NewJSONEditor([]byte(`{"$defs":{"c":{"$ref":"#/$defs/c"}},"$ref":"#/$defs/c"}`), []byte(`{"a":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if errs := e.Validate(); len(errs) != 0 {
		t.Errorf("Validate = %v, want the value not judged", errs)
	}
}
