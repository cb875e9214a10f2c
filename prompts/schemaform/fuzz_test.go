package schemaform_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// fuzzKeys are the keys a fuzzed session presses, picked by the input.
var fuzzKeys = keytest.Keys("tab", "shift+tab", "space", "left", "right", "backspace", "enter", "ctrl+s", "ctrl+e",
	"1", "a", ",", ".", "-", `"`, "{", "}")

// FuzzNew builds forms from arbitrary schemas and defaults, presses keys
// and renders: nothing may panic, and a submitted value must be JSON.
func FuzzNew(f *testing.F) {
	for _, s := range []string{
		toolSchema,
		`{"type":"object","properties":{"tree":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"object","properties":{"k":{"$ref":"#/$defs/n"}}}}}`,
		`{"type":"object","properties":{"a":{"allOf":[{"$ref":"#"}]},"b":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`,
		`{"type":"object","properties":{"m":{"type":"array","items":{"anyOf":[{"const":1,"title":"x"},{"const":[2]}]}},"e":{"enum":[]}}}`,
		`{"properties":{"x":{"type":["integer","string"],"minimum":1e308,"pattern":"(?=a)"}},"required":["x","y"]}`,
		`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","exclusiveMinimum":true,"minimum":0}}}`,
		`true`, `false`, `{}`, `{"$ref":"#/definitions/a","definitions":{"a":{"type":"object"}}}`,
	} {
		f.Add([]byte(s), []byte(`{"x":1}`), []byte{0, 2, 9, 10, 7, 8, 8, 3, 6})
	}
	f.Fuzz(func(t *testing.T, schema, defaults, keys []byte) {
		form, err := schemaform.New(schema, schemaform.Options{Title: "fuzz", Defaults: defaults})
		if err != nil {
			return
		}
		form.SetSize(40, 10)
		_ = form.Render(40, 10)
		for i, k := range keys {
			if i == 64 {
				break
			}
			a, _ := form.Update(fuzzKeys[int(k)%len(fuzzKeys)])
			if a == schemaform.ActionSubmit {
				if v, err := form.Value(); err != nil || len(v) == 0 {
					t.Fatalf("submitted, but Value() = %s, %v", v, err)
				}
			}
			_ = form.Render(30+int(k)%50, 3+int(k)%20)
		}
		_, _ = form.Value()
		_ = form.Validate()
		_ = form.KeyMap().FullHelp()
	})
}
