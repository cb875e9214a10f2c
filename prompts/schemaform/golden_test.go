package schemaform_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// toolSchema has one field of every kind.
const toolSchema = `{"type":"object","properties":{
	"query":{"type":"string","title":"Query","description":"What to search for; quotes make a phrase.","minLength":1},
	"since":{"type":"string","format":"date"},
	"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},
	"score":{"type":"number","exclusiveMinimum":0},
	"exact":{"type":"boolean","default":false},
	"sort":{"type":"string","oneOf":[{"const":"rel","title":"Relevance"},{"const":"new","title":"Newest first"}],"default":"rel"},
	"sources":{"type":"array","items":{"type":"string","enum":["web","news","papers"]},"default":["web"]},
	"ids":{"type":"array","items":{"type":"integer"},"maxItems":5},
	"filter":{"type":"object","description":"Narrow the results.","properties":{
		"lang":{"type":"string","pattern":"^[a-z]{2}$"},
		"site":{"type":"string","format":"uri"}},"required":["lang"]}},
	"required":["query"]}`

// goldenForm is the tool schema with a little typed in.
func goldenForm(t *testing.T) *schemaform.Form {
	f := newForm(t, toolSchema, schemaform.Options{Title: "tools/call search"})
	typeText(f, "mcp servers")
	return f
}

func TestGoldenForm(t *testing.T) {
	golden(t, "form", goldenForm(t).Render(72, 40))
}

// After a refused submit each error sits under its field and the focus is
// on the first field with one.
func TestGoldenFormErrors(t *testing.T) {
	f := goldenForm(t)
	press(t, f, "tab")
	typeText(f, "yesterday")
	press(t, f, "tab", "backspace", "backspace")
	typeText(f, "500")
	press(t, f, "tab", "tab", "tab", "tab", "tab", "tab")
	typeText(f, "english")
	press(t, f, "ctrl+s")
	golden(t, "form_errors", f.Render(72, 40))
}

// A short window scrolls to keep the focused field in view.
func TestGoldenFormScrolled(t *testing.T) {
	f := goldenForm(t)
	press(t, f, "shift+tab")
	out := f.Render(72, 8)
	if n := strings.Count(out, "\n") + 1; n > 8 {
		t.Errorf("render has %d lines for a height of 8", n)
	}
	golden(t, "form_scrolled", out)
}

// The choice under the cursor is the one space selects: the render shows
// the selection move.
func TestGoldenChoices(t *testing.T) {
	f := goldenForm(t)
	press(t, f, "tab", "tab", "tab", "tab", "tab", "right", "space", "tab", "right", "right", "space")
	golden(t, "form_choices", f.Render(72, 40))
}

func TestGoldenFallback(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["env"]}`,
		schemaform.Options{Title: "tools/call run", Defaults: []byte(`{"env":{"HOME":1}}`)})
	press(t, f, "ctrl+s")
	golden(t, "fallback", f.Render(72, 12))
}
