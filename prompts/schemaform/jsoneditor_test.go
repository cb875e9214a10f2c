package schemaform_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// Schemas the form cannot express open the JSON editor, which validates
// against the same schema and names errors by JSON pointer.
func TestFallbackToJSONEditor(t *testing.T) {
	for _, c := range []struct{ name, schema, reason string }{
		{"$ref cycle", `{"type":"object","properties":{"tree":{"$ref":"#/$defs/node"}},
			"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`, "$ref cycle"},
		{"oneOf objects", `{"type":"object","properties":{"shape":{"oneOf":[
			{"type":"object","properties":{"r":{"type":"number"}}},{"type":"object","properties":{"w":{"type":"number"}}}]}}}`, "oneOf/anyOf"},
		{"map", `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}`, "additionalProperties"},
		{"array of objects", `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}}}}}}`, "array of objects"},
		{"tuple", `{"type":"object","properties":{"pt":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}]}}}`, "tuple"},
		{"remote $ref", `{"type":"object","properties":{"x":{"$ref":"https://example.com/x.json"}}}`, "not a local JSON pointer"},
		{"not an object", `{"type":"string"}`, "does not describe an object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newForm(t, c.schema, schemaform.Options{Defaults: []byte(`{"a":1}`)})
			if !strings.Contains(f.Fallback(), c.reason) || !f.EditingJSON() {
				t.Fatalf("Fallback() = %q (editing JSON %v), want it to mention %q", f.Fallback(), f.EditingJSON(), c.reason)
			}
			out := goldentest.Plain(f.Render(80, 12))
			if !strings.Contains(out, "cannot be shown as a form") || !strings.Contains(out, `"a": 1`) {
				t.Errorf("the editor does not explain itself or lost the defaults:\n%s", out)
			}
			wantValue(t, f, `{"a":1}`)
			if press(t, f, "ctrl+e"); !f.EditingJSON() {
				t.Errorf("ctrl+e left the JSON editor of an unsupported schema")
			}
		})
	}
}

// In the fallback editor, submit is refused while the JSON breaks the
// schema (errors listed with their pointer) and accepted once it is fixed.
func TestFallbackEditorValidates(t *testing.T) {
	schema := `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["env"]}`
	f := newForm(t, schema, schemaform.Options{Defaults: []byte(`{"env":{"HOME":1}}`)})
	if a := press(t, f, "ctrl+s"); a != schemaform.ActionNone {
		t.Fatalf("ctrl+s with a bad value = %v, want none", a)
	}
	if out := goldentest.Plain(f.Render(80, 12)); !strings.Contains(out, "✗ /env/HOME: must be a string") {
		t.Errorf("the error is not shown with its pointer:\n%s", out)
	}
	// "env": {"HOME": 1} is on line 3; make the 1 a string.
	press(t, f, "down", "down", "end", "backspace")
	typeText(f, `"~"`)
	if errs := f.Validate(); len(errs) != 0 {
		t.Fatalf("Validate = %v after the fix", errs)
	}
	if out := goldentest.Plain(f.Render(80, 12)); strings.Contains(out, "✗") {
		t.Errorf("a fixed error is still shown:\n%s", out)
	}
	if a := press(t, f, "ctrl+s"); a != schemaform.ActionSubmit {
		t.Fatalf("ctrl+s with a good value = %v, want submit", a)
	}
	wantValue(t, f, `{"env":{"HOME":"~"}}`)
}

// ctrl+e opens the editor on the form's value and brings the edited JSON
// back into the fields; JSON the form cannot show is not taken back.
func TestEditJSONRoundTrip(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer"}}}`, schemaform.Options{})
	typeText(f, "x")
	if a := press(t, f, "ctrl+e"); a != schemaform.ActionEditJSON || !f.EditingJSON() {
		t.Fatalf("ctrl+e = %v (editing %v), want the JSON editor", a, f.EditingJSON())
	}
	if out := goldentest.Plain(f.Render(40, 8)); !strings.Contains(out, `"a": "x"`) {
		t.Errorf("the editor does not start from the form's value:\n%s", out)
	}
	// line 2 is `  "a": "x"`: replace "x" by 5, which a string field cannot show.
	press(t, f, "down", "end", "backspace", "backspace", "backspace")
	typeText(f, "5")
	press(t, f, "ctrl+e")
	if !f.EditingJSON() || !strings.Contains(goldentest.Plain(f.Render(60, 10)), "cannot show this JSON") {
		t.Fatalf("JSON the form cannot show was taken back:\n%s", goldentest.Plain(f.Render(60, 10)))
	}
	press(t, f, "backspace")
	typeText(f, `"y", "n": 12`)
	press(t, f, "ctrl+e")
	if f.EditingJSON() {
		t.Fatalf("ctrl+e did not return to the form:\n%s", goldentest.Plain(f.Render(60, 10)))
	}
	wantValue(t, f, `{"a":"y","n":12}`)
}

// The standalone editor reports where the text stops being JSON.
func TestJSONEditorSyntaxError(t *testing.T) {
	e, err := schemaform.NewJSONEditor([]byte(`{"type":"object"}`), []byte("{\n  \"a\": tru\n}"))
	if err != nil {
		t.Fatal(err)
	}
	errs := e.Validate()
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "line 2, column 11") {
		t.Errorf("Validate = %v, want the position of the error", errs)
	}
	if a, _ := e.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}); a != schemaform.ActionNone {
		t.Errorf("ctrl+s on broken JSON = %v", a)
	}
	if out := goldentest.Plain(e.Render(60, 8)); !strings.Contains(out, "✗ the text is not JSON at line 2") {
		t.Errorf("the syntax error is not shown:\n%s", out)
	}
	if _, err := schemaform.NewJSONEditor([]byte(`{`), nil); err == nil {
		t.Error("NewJSONEditor accepted a schema that is not JSON")
	}
}

// $ref to $defs, allOf wrappers and nullable unions are followed, not
// sent to the editor.
func TestResolvedSchemas(t *testing.T) {
	f := newForm(t, `{"type":"object","$defs":{"addr":{"type":"object","properties":{"city":{"type":"string"}}}},
		"properties":{
			"home":{"$ref":"#/$defs/addr","description":"where you live"},
			"work":{"allOf":[{"$ref":"#/$defs/addr"}]},
			"nick":{"anyOf":[{"type":"string"},{"type":"null"}]},
			"age":{"type":["integer","null"]}}}`, schemaform.Options{})
	if f.Fallback() != "" {
		t.Fatalf("Fallback() = %q, want a form", f.Fallback())
	}
	typeText(f, "Oslo")
	press(t, f, "tab")
	typeText(f, "Bergen")
	press(t, f, "tab")
	typeText(f, "ada")
	press(t, f, "tab")
	typeText(f, "36")
	wantValue(t, f, `{"home":{"city":"Oslo"},"work":{"city":"Bergen"},"nick":"ada","age":36}`)
}

// New refuses what is not a schema, and defaults that are not an object.
func TestNewErrors(t *testing.T) {
	for _, s := range []string{``, `null`, `[1]`, `"x"`, `{`} {
		if _, err := schemaform.New([]byte(s), schemaform.Options{}); err == nil {
			t.Errorf("New(%q) accepted it", s)
		}
	}
	if _, err := schemaform.New([]byte(`{"type":"object"}`), schemaform.Options{Defaults: []byte(`[1]`)}); err == nil {
		t.Error("New accepted defaults that are not an object")
	}
}

// A schema whose $refs multiply the fields past the bound (here 50^4
// nested objects) opens the JSON editor instead of exhausting memory.
func TestRefAmplificationBounded(t *testing.T) {
	level := func(next string) string {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range 50 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"p` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":{"$ref":"#/$defs/` + next + `"}`)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	schema := `{"type":"object","properties":{"x":{"$ref":"#/$defs/l1"}},"$defs":{` +
		`"l1":` + level("l2") + `,"l2":` + level("l3") + `,"l3":` + level("l4") + `,"l4":` + level("leaf") +
		`,"leaf":false}}`
	f := newForm(t, schema, schemaform.Options{})
	if !strings.Contains(f.Fallback(), "more than") {
		t.Errorf("Fallback() = %q, want the bound on fields", f.Fallback())
	}
}
