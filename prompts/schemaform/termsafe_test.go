package schemaform_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// A schema is the server's: its titles, descriptions, patterns and enum
// names reach the screen escaped, never as escape sequences.
func TestHostileSchemaTextIsEscaped(t *testing.T) {
	const esc = `\u001b]0;PWNED\u0007\u001b[2J`
	schema := `{"type":"object","properties":{
		"a":{"type":"string","title":"A ` + esc + `","description":"about ` + esc + `","pattern":"^` + esc + `$"},
		"b":{"type":"string","enum":["x","y"],"enumNames":["X ` + esc + `","Y"]}}}`
	f := newForm(t, schema, schemaform.Options{Title: "form " + "\x1b]0;PWNED\x07"})
	f.SetSize(100, 30)
	view := f.Render(100, 30)
	for _, raw := range []string{"\x07", "\x1b]", "\x1b[2J"} {
		if i := strings.Index(view, raw); i >= 0 {
			t.Errorf("raw %q at byte %d: %q", raw, i, view[max(i-40, 0):min(i+40, len(view))])
		}
	}
	if !strings.Contains(view, `\x1b]0;PWNED\x07`) {
		t.Errorf("the hostile text is not shown escaped:\n%s", view)
	}
}
