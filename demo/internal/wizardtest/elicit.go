package wizardtest

import (
	"encoding/json"
	"reflect"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ElicitAllContent is a form answer that fills every field of elicit_all.
func ElicitAllContent() map[string]any {
	return map[string]any{"name": "Ada", "email": "ada@example.com", "website": "https://example.com/ada",
		"birthday": "1990-12-10", "meeting": "2026-12-24T18:00:00Z", "ratio": 0.5, "count": 7.0, "subscribe": false,
		"color": "green", "size": "m", "plan": "pro", "toppings": []any{"cheese", "olives"}}
}

// field is one property of a requested schema, as far as the check needs.
type field struct {
	Type      string            `json:"type"`
	Format    string            `json:"format"`
	Minimum   *float64          `json:"minimum"`
	Maximum   *float64          `json:"maximum"`
	Default   json.RawMessage   `json:"default"`
	Enum      []string          `json:"enum"`
	EnumNames []string          `json:"enumNames"`
	OneOf     []json.RawMessage `json:"oneOf"`
	Items     *field            `json:"items"`
}

// kinds lists which field kinds of MCP's form mode a schema covers.
func kinds(props map[string]field) map[string]bool {
	k := map[string]bool{}
	for _, f := range props {
		switch {
		case f.Type == "string" && f.Format != "":
			k["format "+f.Format] = true
		case f.Type == "string" && len(f.OneOf) > 0:
			k["titled enum"] = true
		case f.Type == "string" && len(f.EnumNames) > 0:
			k["legacy enumNames"] = true
		case f.Type == "string" && len(f.Enum) > 0:
			k["enum"] = true
		case f.Type == "string":
			k["string"] = true
		case f.Type == "number" && f.Minimum != nil && f.Maximum != nil:
			k["number with bounds"] = true
		case f.Type == "integer":
			k["integer"] = true
		case f.Type == "boolean" && len(f.Default) > 0:
			k["boolean with default"] = true
		case f.Type == "array" && f.Items != nil && len(f.Items.Enum) > 0 && len(f.Default) > 0:
			k["multi-select with default"] = true
		}
	}
	return k
}

// ElicitAll calls elicit_all, checks that its elicitation/create (form
// mode) covers every field kind, answers action with content, and returns
// the tool's structuredContent.
func (c *Client) ElicitAll(action string, content map[string]any) map[string]any {
	c.t.Helper()
	id := c.Start(mcp.MethodToolsCall, map[string]any{"name": "elicit_all", "arguments": map[string]any{}})
	m := c.Expect(mcp.MethodElicitationCreate)
	p := Params[mcp.ElicitRequestParams](c.t, m)
	var schema struct {
		Properties map[string]field `json:"properties"`
	}
	if err := json.Unmarshal(p.RequestedSchema, &schema); err != nil || p.EffectiveMode() != mcp.ElicitModeForm {
		c.t.Fatalf("elicitation/create %s: %v", m.Params, err)
	}
	got := kinds(schema.Properties)
	for _, want := range []string{"string", "format email", "format uri", "format date", "format date-time", "number with bounds",
		"integer", "boolean with default", "enum", "titled enum", "legacy enumNames", "multi-select with default"} {
		if !got[want] {
			c.t.Errorf("the form lacks a field of kind %q (has %v)", want, got)
		}
	}
	c.Reply(m, mcp.ElicitResult{Action: action, Content: content})
	r := c.Await(id)
	res := Result[struct {
		StructuredContent map[string]any `json:"structuredContent"`
		IsError           bool           `json:"isError"`
	}](c.t, r)
	if res.IsError || res.StructuredContent["action"] != action {
		c.t.Fatalf("elicit_all answered %s", r.Result)
	}
	if action == mcp.ElicitActionAccept && !reflect.DeepEqual(res.StructuredContent["content"], content) {
		c.t.Errorf("elicit_all returned %v, want the content sent %v", res.StructuredContent["content"], content)
	}
	return res.StructuredContent
}
