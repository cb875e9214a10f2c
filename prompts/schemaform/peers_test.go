package schemaform_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/cli"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// The real-schema tests take the inputSchema of every tool of real MCP
// servers (PEERS.md), listed by mcpscope's own `tools` command run
// in-process, and build a form for each.

// tool is one entry of a tools/list result.
type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// mcpscope runs the CLI in-process and returns its stdout.
func mcpscope(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var out, errb bytes.Buffer
	if code := cli.Execute(ctx, args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("mcpscope %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.Bytes()
}

// listTools lists the tools of the stdio server argv.
func listTools(t *testing.T, argv []string) []tool {
	t.Helper()
	var doc struct {
		Tools []tool `json:"tools"`
	}
	out := mcpscope(t, append([]string{"tools", "--"}, argv...)...)
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("tools output is not JSON: %v\n%s", err, out)
	}
	return doc.Tools
}

// topLevel reads the required names and the defaults of a schema's
// top-level properties, straight from the JSON, and whether what is
// required also depends on conditions (allOf, anyOf, oneOf, if).
func topLevel(t *testing.T, schema json.RawMessage) (required []string, defaults map[string]json.RawMessage, conditional bool) {
	t.Helper()
	var s struct {
		Required   []string                              `json:"required"`
		Properties map[string]map[string]json.RawMessage `json:"properties"`
		AllOf      json.RawMessage                       `json:"allOf"`
		AnyOf      json.RawMessage                       `json:"anyOf"`
		OneOf      json.RawMessage                       `json:"oneOf"`
		If         json.RawMessage                       `json:"if"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("schema: %v", err)
	}
	conditional = s.AllOf != nil || s.AnyOf != nil || s.OneOf != nil || s.If != nil
	defaults = map[string]json.RawMessage{}
	for name, p := range s.Properties {
		if d, ok := p["default"]; ok {
			defaults[name] = d
		}
	}
	return s.Required, defaults, conditional
}

// TestRealToolSchemas builds a form (or the JSON fallback) for every tool
// of four real servers. Where every required field has a default, the
// value of the untouched form holds exactly those defaults and validates;
// where one does not, validation reports it missing at its pointer; where
// requirements are conditional, validation reports only missing values.
func TestRealToolSchemas(t *testing.T) {
	peers := []struct {
		name     string
		argv     []string
		minTools int
	}{
		{"ts-everything", peertest.TSEverything(t, "stdio"), 10},
		{"go-sdk-everything", peertest.GoSDKEverything(t), 5},
		{"go-sdk-conformance", []string{peertest.GoSDKConformance(t)}, 20},
		{"mark3labs-everything", peertest.Mark3labsEverything(t), 5},
	}
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) {
			tools := listTools(t, p.argv)
			if len(tools) < p.minTools {
				t.Fatalf("listed %d tools, want at least %d", len(tools), p.minTools)
			}
			var withDefaults, missing, fallbacks int
			for _, tl := range tools {
				f, err := schemaform.New(tl.InputSchema, schemaform.Options{Title: tl.Name})
				if err != nil {
					t.Errorf("%s: New: %v", tl.Name, err)
					continue
				}
				if out := goldentest.Plain(f.Render(80, 30)); !strings.HasPrefix(out, tl.Name) {
					t.Errorf("%s: render does not start with the title:\n%s", tl.Name, out)
				}
				if f.Fallback() != "" {
					fallbacks++
					t.Logf("%s: JSON editor (%s)", tl.Name, f.Fallback())
				}
				if err := f.SchemaError(); err != nil {
					t.Errorf("%s: the schema did not compile for validation: %v", tl.Name, err)
				}
				required, defaults, conditional := topLevel(t, tl.InputSchema)
				errs := f.Validate()
				if conditional {
					missing++
					for _, e := range errs {
						if !strings.Contains(e.Message, "required") {
							t.Errorf("%s: Validate = %v, want only missing values", tl.Name, errs)
						}
					}
					if len(errs) == 0 {
						t.Errorf("%s: an empty form validates against conditional requirements", tl.Name)
					}
					continue
				}
				var lacking []string
				for _, r := range required {
					if defaults[r] == nil {
						lacking = append(lacking, r)
					}
				}
				if len(lacking) > 0 {
					missing++
					for _, r := range lacking {
						if !hasError(errs, "/"+r, "required") {
							t.Errorf("%s: Validate = %v, want /%s required", tl.Name, errs, r)
						}
					}
					continue
				}
				withDefaults++
				checkDefaults(t, tl.Name, f, defaults)
				if len(errs) != 0 {
					t.Errorf("%s: the defaults do not validate: %v", tl.Name, errs)
				}
			}
			t.Logf("%d tools: %d validate on their defaults, %d lack a required value, %d need the JSON editor",
				len(tools), withDefaults, missing, fallbacks)
		})
	}
}

// checkDefaults checks that Value() holds exactly the schema's top-level
// defaults, byte for byte (an integer default stays an integer).
func checkDefaults(t *testing.T, name string, f *schemaform.Form, defaults map[string]json.RawMessage) {
	t.Helper()
	v, err := f.Value()
	if err != nil {
		t.Errorf("%s: Value: %v", name, err)
		return
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(v, &got); err != nil {
		t.Errorf("%s: Value %s: %v", name, v, err)
		return
	}
	for k, d := range defaults {
		var want bytes.Buffer
		_ = json.Compact(&want, d)
		if !bytes.Equal(got[k], want.Bytes()) {
			t.Errorf("%s: Value %s has %s = %s, want the default %s", name, v, k, got[k], want.Bytes())
		}
	}
	for k := range got {
		if defaults[k] == nil {
			t.Errorf("%s: Value %s has %s, which nothing filled in", name, v, k)
		}
	}
}

// TestRealToolCallFromForm fills real tools' forms from the keyboard and
// calls the tools with the value: the servers accept the arguments and
// echo them back.
func TestRealToolCallFromForm(t *testing.T) {
	cases := []struct {
		name string
		argv []string
		tool string
		keys func(f *schemaform.Form)
		want string // in the result text
	}{
		{"ts get-sum", peertest.TSEverything(t, "stdio"), "get-sum", func(f *schemaform.Form) {
			typeText(f, "2")
			press(t, f, "tab")
			typeText(f, "3.5")
		}, "The sum of 2 and 3.5 is 5.5."},
		{"conformance json_schema_2020_12_tool", []string{peertest.GoSDKConformance(t)}, "json_schema_2020_12_tool", func(f *schemaform.Form) {
			typeText(f, "Ada")
			press(t, f, "tab", "tab") // street, city
			typeText(f, "Oslo")
			press(t, f, "tab", "space", "tab") // contactMethod: phone
			typeText(f, "555 0100")
		}, `{"address":{"city":"Oslo"},"contactMethod":"phone","name":"Ada","phone":"555 0100"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tools := listTools(t, c.argv)
			i := slices.IndexFunc(tools, func(tl tool) bool { return tl.Name == c.tool })
			if i < 0 {
				t.Fatalf("the server has no tool %s", c.tool)
			}
			f := newForm(t, string(tools[i].InputSchema), schemaform.Options{})
			c.keys(f)
			if a := press(t, f, "ctrl+s"); a != schemaform.ActionSubmit {
				t.Fatalf("ctrl+s = %v, errors %v", a, f.Validate())
			}
			params, _ := json.Marshal(map[string]any{"name": c.tool, "arguments": json.RawMessage(value(t, f))})
			out := mcpscope(t, append([]string{"call", "tools/call", string(params), "--"}, c.argv...)...)
			var res struct {
				Content []struct{ Text string } `json:"content"`
				IsError bool                    `json:"isError"`
			}
			if err := json.Unmarshal(out, &res); err != nil || res.IsError || len(res.Content) == 0 {
				t.Fatalf("result %s (%v)", out, err)
			}
			if !strings.Contains(res.Content[0].Text, c.want) {
				t.Errorf("result text %q, want it to contain %q", res.Content[0].Text, c.want)
			}
		})
	}
}
