package demo

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestComplete: the demo suggests its prompts' and its template's values
// by prefix, case folded, narrowed by the other variables in context, and
// refuses what it does not have.
func TestComplete(t *testing.T) {
	ask := func(ref mcp.CompleteReference, name, value string, others map[string]string) ([]string, string) {
		p := mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteArgument{Name: name, Value: value}}
		if others != nil {
			p.Context = &mcp.CompleteContext{Arguments: others}
		}
		raw, _ := json.Marshal(p)
		res, rerr := complete(raw)
		if rerr != nil {
			return nil, rerr.Message
		}
		c := res.(mcp.CompleteResult).Completion
		if *c.Total != len(c.Values) || c.HasMore {
			t.Errorf("total %d, hasMore %v for %d values", *c.Total, c.HasMore, len(c.Values))
		}
		return c.Values, ""
	}
	prompt := func(n string) mcp.CompleteReference { return mcp.CompleteReference{Type: "ref/prompt", Name: n} }
	tmpl := mcp.CompleteReference{Type: "ref/resource", URI: builtinTemplateURI}
	for _, c := range []struct {
		ref         mcp.CompleteReference
		name, value string
		others      map[string]string
		want        []string
	}{
		{prompt("plan_scaffold"), "toolchain", "", nil, []string{"rust", "go", "python"}},
		{prompt("plan_scaffold"), "toolchain", "G", nil, []string{"go"}},
		{prompt("review_template"), "uri", "template://readme", nil, []string{"template://readme/rust/cli", "template://readme/go/cli"}},
		{prompt("review_template"), "other", "", nil, []string{}},
		{tmpl, "category", "", map[string]string{"toolchain": "python"}, []string{"makefile"}},
		{tmpl, "variant", "", nil, []string{"cli", "package"}},
		{tmpl, "toolchain", "", map[string]string{"category": "gitignore", "toolchain": "x"}, []string{"rust"}},
	} {
		got, err := ask(c.ref, c.name, c.value, c.others)
		if err != "" || !slices.Equal(got, c.want) {
			t.Errorf("%v %s=%q %v: %q %s, want %q", c.ref, c.name, c.value, c.others, got, err, c.want)
		}
	}
	for ref, want := range map[mcp.CompleteReference]string{
		prompt("nope"):                         `unknown prompt "nope"; prompts/list names the prompts`,
		{Type: "ref/resource", URI: "x://{y}"}: `unknown resource template "x://{y}"; resources/templates/list names it`,
		{Type: "ref/tool", Name: "t"}:          `unknown reference type "ref/tool": ref/prompt or ref/resource`,
	} {
		if _, err := ask(ref, "a", "", nil); err != want {
			t.Errorf("%v: %q, want %q", ref, err, want)
		}
	}
	if _, rerr := complete(json.RawMessage(`[1]`)); rerr == nil || rerr.Code != mcp.CodeInvalidParams {
		t.Errorf("malformed params: %v", rerr)
	}
}
