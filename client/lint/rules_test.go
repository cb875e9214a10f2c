package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// raws turns JSON texts into listing entries.
func raws(items ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, s := range items {
		out[i] = json.RawMessage(s)
	}
	return out
}

// tools is an offer of the given tools.
func tools(items ...string) Offer { return Offer{Tools: raws(items...)} }

// withSchema is a described tool named name with the input schema given.
func withSchema(name, schema string) string {
	return `{"name":"` + name + `","description":"Looks up ` + name + ` records by key.","inputSchema":` + schema + `}`
}

// manyTools are n distinct well-formed tools.
func manyTools(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = withSchema("t"+strconv.Itoa(i), okSchema)
	}
	return out
}

// ruleCase is a rule with an offer it must flag and one it must not.
type ruleCase struct {
	rule      string
	bad, good Offer
	path      string // the path the finding on bad carries, when checked
}

const okSchema = `{"type":"object","properties":{"q":{"type":"string","description":"the query"}},"required":["q"],"additionalProperties":false}`

var ruleCases = []ruleCase{
	{rule: "listing-malformed",
		bad:  Offer{Tools: raws(`[1,2]`), Prompts: raws(`{"description":"no name"}`)},
		good: Offer{Tools: raws(withSchema("a", okSchema)), Prompts: raws(`{"name":"p","description":"d"}`)},
		path: "$.tools[0]"},
	{rule: "name-duplicate",
		bad:  tools(withSchema("a", okSchema), withSchema("a", okSchema)),
		good: tools(withSchema("a", okSchema), withSchema("b", okSchema)),
		path: "$.tools[1].name"},
	{rule: "resource-uri-invalid",
		bad:  Offer{Resources: raws(`{"uri":"notes/1 2","name":"n","description":"d"}`)},
		good: Offer{Resources: raws(`{"uri":"myapp://notes/1","name":"n","description":"d"}`)},
		path: "$.resources[0].uri"},
	{rule: "input-schema-root",
		bad:  tools(withSchema("a", `{"type":"string"}`)),
		good: tools(withSchema("a", okSchema)),
		path: "$.tools[0].inputSchema"},
	{rule: "output-schema-root",
		bad:  tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"outputSchema":{"description":"x"}}`),
		good: tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"outputSchema":{"type":"object"}}`),
		path: "$.tools[0].outputSchema"},
	{rule: "output-schema-not-object",
		bad:  Offer{ProtocolVersion: "2026-07-28", Tools: raws(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"outputSchema":{"type":"array","items":{"type":"string"}}}`)},
		good: Offer{ProtocolVersion: "2026-07-28", Tools: raws(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"outputSchema":{"type":"object"}}`)},
		path: "$.tools[0].outputSchema"},
	{rule: "schema-invalid",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"q":{"type":"strin"}}}`)),
		good: tools(withSchema("a", okSchema))},
	{rule: "schema-boolean",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"q":true}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`)),
		path: "$.tools[0].inputSchema.properties.q"},
	{rule: "schema-type-union",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"q":{"type":["string","null"]}}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"q":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`)),
		path: "$.tools[0].inputSchema.properties.q"},
	{rule: "schema-remote-ref",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"q":{"$ref":"https://example.com/q.json"}}}`)),
		good: tools(withSchema("a", `{"type":"object","$defs":{"q":{"type":"string"}},"properties":{"q":{"$ref":"#/$defs/q"}}}`)),
		path: "$.tools[0].inputSchema.properties.q"},
	{rule: "schema-untyped",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"when":{"description":"any time"}}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"when":{"type":"string","description":"any time"}},"not":{"required":["x"]}}`)),
		path: "$.tools[0].inputSchema.properties.when"},
	{rule: "schema-root-composition",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"not":{"required":["a","b"]}}`)),
		path: "$.tools[0].inputSchema.anyOf"},
	{rule: "schema-array-items",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"ids":{"type":"array"}}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`)),
		path: "$.tools[0].inputSchema.properties.ids"},
	{rule: "schema-required-undeclared",
		bad:  tools(withSchema("a", `{"type":"object","properties":{},"required":["q"]}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"anyOf":[{"required":["q"]}]}`)),
		path: "$.tools[0].inputSchema.required"},
	{rule: "schema-enum-type",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"n":{"type":"integer","enum":[1,"two",3.5]}}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3.0]}}}`)),
		path: "$.tools[0].inputSchema.properties.n.enum[1]"},
	{rule: "schema-default-type",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"n":{"type":"string","enum":["a","b"],"default":"c"}}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"n":{"type":"string","enum":["a","b"],"default":"b"}}}`)),
		path: "$.tools[0].inputSchema.properties.n.default"},
	{rule: "schema-too-deep",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"x":`+strings.Repeat(`{"type":"array","items":`, 70)+`{"type":"string"}`+strings.Repeat(`}`, 70)+`}}`)),
		good: tools(withSchema("a", `{"type":"object","properties":{"x":`+strings.Repeat(`{"type":"array","items":`, 20)+`{"type":"string"}`+strings.Repeat(`}`, 20)+`}}`)),
		path: "$.tools[0].inputSchema"},
	{rule: "schema-local-ref",
		bad:  tools(withSchema("a", `{"type":"object","$defs":{"q":{"type":"string"}},"properties":{"q":{"$ref":"#/$defs/q"}}}`)),
		good: tools(withSchema("a", okSchema))},
	{rule: "schema-strict-mode",
		bad:  tools(withSchema("a", `{"type":"object","properties":{"q":{"type":"string"}}}`)),
		good: tools(withSchema("a", okSchema))},
	{rule: "tool-description-missing",
		bad:  tools(`{"name":"a","description":"  ","inputSchema":` + okSchema + `}`),
		good: tools(withSchema("a", okSchema)),
		path: "$.tools[0].description"},
	{rule: "description-missing",
		bad:  Offer{Resources: raws(`{"uri":"file:///a","name":"a"}`)},
		good: Offer{Resources: raws(`{"uri":"file:///a","name":"a","description":"The a file."}`)},
		path: "$.resources[0].description"},
	{rule: "description-duplicate",
		bad:  tools(`{"name":"a","description":"Gets it.","inputSchema":`+okSchema+`}`, `{"name":"b","description":"gets  IT.","inputSchema":`+okSchema+`}`),
		good: tools(`{"name":"a","description":"Gets it.","inputSchema":`+okSchema+`}`, `{"name":"b","description":"Sets it.","inputSchema":`+okSchema+`}`),
		path: "$.tools[1].description"},
	{rule: "description-too-long",
		bad:  Offer{Prompts: raws(`{"name":"p","description":"` + strings.Repeat("é", 1025) + `"}`)},
		good: Offer{Prompts: raws(`{"name":"p","description":"` + strings.Repeat("é", 1024) + `"}`)}},
	{rule: "parameter-description-missing",
		bad:  Offer{Prompts: raws(`{"name":"p","description":"d","arguments":[{"name":"city"}]}`)},
		good: Offer{Prompts: raws(`{"name":"p","description":"d","arguments":[{"name":"city","description":"a city"}]}`)},
		path: "$.prompts[0].arguments[0]"},
	{rule: "tool-name-invalid",
		bad:  tools(withSchema("get user", okSchema)),
		good: tools(withSchema("get_user", okSchema)),
		path: "$.tools[0].name"},
	{rule: "tool-name-portable",
		bad:  tools(withSchema("admin.users.get", okSchema)),
		good: tools(withSchema("admin_users_get", okSchema))},
	{rule: "tool-count",
		bad:  tools(manyTools(129)...),
		good: tools(manyTools(128)...),
		path: "$.tools"},
	{rule: "tool-name-near-duplicate",
		bad:  tools(withSchema("get_user", okSchema), `{"name":"getUser","description":"Fetches a person.","inputSchema":`+okSchema+`}`),
		good: tools(withSchema("get_user", okSchema), `{"name":"get_users","description":"Fetches a person.","inputSchema":`+okSchema+`}`),
		path: "$.tools[1].name"},
	{rule: "tool-near-duplicate",
		bad: tools(`{"name":"find_orders","description":"Find the orders of one customer by customer id, newest first, at most one hundred.","inputSchema":`+okSchema+`}`,
			`{"name":"search_orders","description":"Find the orders of one customer by customer id, newest first, at most one hundred!","inputSchema":`+okSchema+`}`),
		good: tools(`{"name":"find_orders","description":"Find the orders of one customer by customer id, newest first, at most one hundred.","inputSchema":`+okSchema+`}`,
			`{"name":"cancel_order","description":"Cancel one order by its id; refunds the payment and tells the customer by mail.","inputSchema":`+okSchema+`}`),
		path: "$.tools[1].description"},
	{rule: "tool-near-duplicate-partial",
		bad:  Offer{Tools: commonWordTools(1000)},
		good: Offer{Tools: commonWordTools(60)},
		path: "$.tools"},
	{rule: "annotation-type",
		bad:  tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"annotations":{"readOnlyHint":"yes"}}`),
		good: tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"annotations":{"readOnlyHint":true}}`),
		path: "$.tools[0].annotations.readOnlyHint"},
	{rule: "annotation-contradiction",
		bad:  tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"annotations":{"readOnlyHint":true,"destructiveHint":true}}`),
		good: tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"annotations":{"readOnlyHint":false,"destructiveHint":true}}`)},
	{rule: "annotation-ignored",
		bad:  tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"annotations":{"readOnlyHint":true,"idempotentHint":false}}`),
		good: tools(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"annotations":{"readOnlyHint":false,"idempotentHint":false}}`)},
	{rule: "title-mismatch",
		bad:  tools(`{"name":"a","title":"A","description":"d","inputSchema":` + okSchema + `,"annotations":{"title":"B"}}`),
		good: tools(`{"name":"a","title":"A","description":"d","inputSchema":` + okSchema + `,"annotations":{"title":"A"}}`),
		path: "$.tools[0].annotations.title"},
	{rule: "prompt-argument-malformed",
		bad:  Offer{Prompts: raws(`{"name":"p","description":"d","arguments":[{"description":"nameless"}]}`)},
		good: Offer{Prompts: raws(`{"name":"p","description":"d","arguments":[{"name":"x","description":"named"}]}`)},
		path: "$.prompts[0].arguments[0].name"},
	{rule: "prompt-argument-duplicate",
		bad:  Offer{Prompts: raws(`{"name":"p","description":"d","arguments":[{"name":"x","description":"a"},{"name":"x","description":"b"}]}`)},
		good: Offer{Prompts: raws(`{"name":"p","description":"d","arguments":[{"name":"x","description":"a"},{"name":"y","description":"b"}]}`)},
		path: "$.prompts[0].arguments[1].name"},
	{rule: "argument-undeclared",
		bad: Offer{Prompts: raws(`{"name":"p","description":"Weather for {city} on {day}.","arguments":[{"name":"city","description":"c"}]}`),
			ResourceTemplates: raws(`{"name":"t","description":"Row {rowId} as JSON {\"a\": 1}.","uriTemplate":"db://rows/{id}"}`)},
		good: Offer{Prompts: raws(`{"name":"p","description":"Weather for {city} on {day}.","arguments":[{"name":"city","description":"c"},{"name":"day","description":"d"}]}`),
			ResourceTemplates: raws(`{"name":"t","description":"Row {id} as JSON {\"a\": 1}.","uriTemplate":"db://rows/{id}"}`)},
		path: "$.prompts[0].description"},
	{rule: "template-invalid",
		bad:  Offer{ResourceTemplates: raws(`{"name":"t","description":"d","uriTemplate":"file:///{path"}`)},
		good: Offer{ResourceTemplates: raws(`{"name":"t","description":"d","uriTemplate":"file:///{+path}"}`)},
		path: "$.resourceTemplates[0].uriTemplate"},
	{rule: "template-no-variables",
		bad:  Offer{ResourceTemplates: raws(`{"name":"t","description":"d","uriTemplate":"file:///etc/hosts"}`)},
		good: Offer{ResourceTemplates: raws(`{"name":"t","description":"d","uriTemplate":"file:///{name}"}`)}},
	{rule: "x-mcp-header-invalid",
		bad: Offer{ProtocolVersion: "2026-07-28", Transport: "http", Tools: raws(withSchema("a",
			`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Tenant"},"b":{"type":"string","x-mcp-header":"tenant"}}}`))},
		good: Offer{ProtocolVersion: "2026-07-28", Transport: "http", Tools: raws(withSchema("a",
			`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Tenant"},"b":{"type":"string","x-mcp-header":"Region"}}}`))},
		path: "$.tools[0].inputSchema"},
}

// TestEachRuleFlagsItsCaseAndPassesTheFixedOne runs every rule's failing
// and passing input: a rule whose check was removed or broken fails here.
func TestEachRuleFlagsItsCaseAndPassesTheFixedOne(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.rule, func(t *testing.T) {
			bad := findingsOf(Check(tc.bad), tc.rule)
			if len(bad) == 0 {
				t.Fatalf("%s found nothing in its failing case; all findings: %+v", tc.rule, Check(tc.bad))
			}
			if tc.path != "" && bad[0].Path != tc.path {
				t.Errorf("%s path = %q, want %q", tc.rule, bad[0].Path, tc.path)
			}
			want := ruleByID[tc.rule]
			for _, f := range bad {
				if f.Severity != want.Severity || f.Message == "" || f.Fix == "" || f.Subject == "" || !strings.HasPrefix(f.Path, "$.") {
					t.Errorf("incomplete finding: %+v", f)
				}
			}
			if good := findingsOf(Check(tc.good), tc.rule); len(good) > 0 {
				t.Errorf("%s flags its passing case: %+v", tc.rule, good)
			}
		})
	}
}

// findingsOf are the findings of one rule.
func findingsOf(fs []Finding, rule string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// TestEveryRuleHasACase keeps ruleCases complete, and Rules well formed:
// unique kebab-case ids, a known severity, a summary and a fix.
func TestEveryRuleHasACase(t *testing.T) {
	cased := map[string]bool{}
	for _, tc := range ruleCases {
		cased[tc.rule] = true
	}
	seen := map[string]bool{}
	for _, r := range Rules() {
		if !cased[r.ID] && !strings.HasPrefix(r.ID, wirePrefix) { // wire rules: wire_test.go
			t.Errorf("rule %s has no test case", r.ID)
		}
		if seen[r.ID] || !kebab(r.ID) {
			t.Errorf("rule id %q is repeated or not kebab-case", r.ID)
		}
		seen[r.ID] = true
		if r.Severity.rank() == 2 && r.Severity != SeverityInfo || r.Summary == "" || r.Fix == "" {
			t.Errorf("rule %s is incomplete: %+v", r.ID, r)
		}
	}
}

// kebab reports whether s is lower-case words joined by hyphens.
func kebab(s string) bool {
	for _, w := range strings.Split(s, "-") {
		if w == "" || strings.ToLower(w) != w {
			return false
		}
	}
	return true
}

// TestEraRules: the x-mcp-header rule is the 2026-07-28 revision's and
// Streamable HTTP's alone; the outputSchema rule depends on the era.
func TestEraRules(t *testing.T) {
	bad := ruleCases[slices.IndexFunc(ruleCases, func(c ruleCase) bool { return c.rule == "x-mcp-header-invalid" })].bad
	for _, o := range []Offer{
		{ProtocolVersion: "2025-11-25", Transport: "http", Tools: bad.Tools},
		{ProtocolVersion: "2026-07-28", Transport: "stdio", Tools: bad.Tools},
	} {
		if fs := findingsOf(Check(o), "x-mcp-header-invalid"); len(fs) > 0 {
			t.Errorf("%s over %s: %+v", o.ProtocolVersion, o.Transport, fs)
		}
	}
	// A non-object outputSchema is an error before 2026-07-28 and a
	// warning from it on.
	output := raws(`{"name":"a","description":"d","inputSchema":` + okSchema + `,"outputSchema":{"type":"number"}}`)
	for version, want := range map[string]string{"2025-11-25": "output-schema-root", "": "output-schema-root", "2026-07-28": "output-schema-not-object"} {
		fs := Check(Offer{ProtocolVersion: version, Tools: output})
		if len(fs) == 0 || fs[0].Rule != want {
			t.Errorf("outputSchema of type number at %q: %+v, want %s", version, fs, want)
		}
	}
}

// TestFindingsAreWorstFirstThenInListingOrder checks Check's order.
func TestFindingsAreWorstFirstThenInListingOrder(t *testing.T) {
	fs := Check(tools(
		`{"name":"a","inputSchema":`+okSchema+`}`,                    // warning: no description
		withSchema("b", `{"type":"object","properties":{"q":true}}`), // error
		`{"name":"c","inputSchema":`+okSchema+`}`,                    // warning
	))
	var got []string
	for _, f := range fs {
		if f.Severity != SeverityInfo {
			got = append(got, f.Rule+" "+f.Subject)
		}
	}
	want := []string{`schema-boolean tool "b"`, `tool-description-missing tool "a"`, `tool-description-missing tool "c"`}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}
}

// TestServerTextIsSafe: names, keys and descriptions full of escape
// sequences come out of every field of every finding escaped.
func TestServerTextIsSafe(t *testing.T) {
	evil := "\x1b]0;pwned\x07\x1b[2J\u202e"
	name, _ := json.Marshal(evil)
	fs := Check(Offer{
		Tools:             raws(`{"name":` + string(name) + `,"inputSchema":{"type":"object","properties":{` + string(name) + `:{"type":"array"}},"required":[` + string(name) + `,"x` + evil[1:2] + `"]}}`),
		Prompts:           raws(`{"name":` + string(name) + `,"arguments":[{"name":` + string(name) + `},{"name":` + string(name) + `}]}`),
		ResourceTemplates: raws(`{"name":"t","uriTemplate":` + string(name) + `}`),
	})
	if len(fs) < 5 {
		t.Fatalf("too few findings: %+v", fs)
	}
	for _, f := range fs {
		for _, s := range []string{f.Subject, f.Path, f.Message, f.Fix} {
			if !termtext.Safe(s) {
				t.Errorf("%s carries unsafe text: %q", f.Rule, s)
			}
		}
	}
}

// TestDocListsEveryRule keeps docs/lint-rules.md in step with Rules: a
// table row for each rule with its id and severity.
func TestDocListsEveryRule(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "lint-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		if row := "| `" + r.ID + "` | " + string(r.Severity) + " |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/lint-rules.md has no row %q", row)
		}
	}
}
