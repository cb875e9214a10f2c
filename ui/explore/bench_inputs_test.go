package explore

import (
	"encoding/json"
	"image/color"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/look"
)

// A required member that is no list of names still requires arguments:
// b opens the form, which shows what the schema asks, rather than a
// bench that calls the tool with none.
func TestRequiresArguments(t *testing.T) {
	for schema, want := range map[string]bool{
		`{"type":"object"}`:                       false,
		`{"type":"object","required":[]}`:         false,
		`{"type":"object","required":null}`:       false,
		`{"type":"object","required":["a"]}`:      true,
		`{"type":"object","required":[1]}`:        true,
		`{"type":"object","required":["a",{}]}`:   true,
		`{"type":"object","required":"a"}`:        true,
		`{"type":"object","required":{"a":true}}`: true,
		`not json`: false,
		`[1]`:      false,
	} {
		if got := requiresArguments(json.RawMessage(schema)); got != want {
			t.Errorf("%s: requires arguments %v, want %v", schema, got, want)
		}
	}
}

// A theme's change while a bench is open reaches the explorer: its
// filter shows in the new theme's colours once the bench closes.
func TestExploreBenchPassesTheTheme(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("list_templates")
	r.Press("enter", "b")
	if x.mode != modeBench {
		t.Fatalf("b on list_templates: mode %d", x.mode)
	}
	*m.host.St = look.NewStyles(false) // the root switches the styles, then tells the screens
	r.Send(tea.BackgroundColorMsg{Color: color.White})
	r.Press("esc")
	if !reflect.DeepEqual(x.input.Styles(), m.host.St.Input) {
		t.Error("the filter kept the dark theme's styles after a switch to the light one during the bench")
	}
}

// FuzzRequiresArguments feeds a server's inputSchema to the test of b:
// it never panics, and a schema whose required is a list of names
// requires arguments exactly when the list has one.
func FuzzRequiresArguments(f *testing.F) {
	f.Add([]byte(`{"type":"object","required":["a"]}`))
	f.Add([]byte(`{"required":[1,null]}`))
	f.Add([]byte(`{"required":"a"}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		got := requiresArguments(schema)
		var s struct {
			Required []string `json:"required"`
		}
		if json.Unmarshal(schema, &s) == nil && got != (len(s.Required) > 0) {
			t.Fatalf("%s: requires arguments %v with required %q", schema, got, s.Required)
		}
	})
}
