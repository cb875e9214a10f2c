package lint

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listed is a server's listings as `mcpscope tools`, `prompts` and
// `resources` print them, merged into one object.
type listed struct {
	Tools             []json.RawMessage `json:"tools"`
	Prompts           []json.RawMessage `json:"prompts"`
	Resources         []json.RawMessage `json:"resources"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
}

// offer is the listing as an Offer of the version and transport given.
func (l listed) offer(version, transport string) Offer {
	return Offer{ProtocolVersion: version, Transport: transport, Tools: l.Tools, Prompts: l.Prompts,
		Resources: l.Resources, ResourceTemplates: l.ResourceTemplates}
}

// peerFindings are what a peer's listing is expected to yield: the
// warnings and errors exactly ("rule subject"), and the count of each
// rule's info findings.
type peerFindings struct {
	fixture, version, transport string
	findings                    []string
	infos                       map[string]int
}

// realPeers are listings captured from real servers (PEERS.md) with
// mcpscope's own tools, prompts and resources commands over stdio (the
// Go SDK everything example's data-URI icons shortened). The
// Go SDK conformance server is checked as over Streamable HTTP at
// 2026-07-28, as its -http mode serves it, so its x-mcp-header tool is
// read too.
var realPeers = []peerFindings{
	{fixture: "ts-everything.json", version: "2025-11-25", transport: "stdio",
		infos: map[string]int{"parameter-description-missing": 2, "schema-strict-mode": 16}},
	{fixture: "gosdk-conformance.json", version: "2026-07-28", transport: "http",
		findings: []string{`schema-root-composition tool "json_schema_2020_12_tool"`},
		infos:    map[string]int{"parameter-description-missing": 5, "schema-local-ref": 1, "schema-strict-mode": 26}},
	{fixture: "gosdk-everything.json", version: "2025-11-25", transport: "stdio",
		findings: goSDKEverythingFindings(),
		infos:    map[string]int{"description-missing": 4, "schema-strict-mode": 6}},
	{fixture: "mark3labs-everything.json", version: "2025-11-25", transport: "stdio",
		findings: []string{`tool-description-missing tool "notify"`},
		infos:    map[string]int{"description-missing": 102, "schema-strict-mode": 6}},
}

// goSDKEverythingFindings are the Go SDK everything example's: names
// with spaces and parentheses, and tools without a description.
func goSDKEverythingFindings() []string {
	var out []string
	for _, name := range []string{"elicit (form)", "elicit (url)", "greet (content with ResourceLink)", "greet (structured)", "greet (with Icons)", "log", "ping", "roots", "sample"} {
		out = append(out, `tool-description-missing tool "`+name+`"`)
		if strings.Contains(name, " ") {
			out = append(out, `tool-name-invalid tool "`+name+`"`)
		}
	}
	return out
}

// summarize splits findings into the warnings and errors, and the count
// of each info rule.
func summarize(fs []Finding) (serious []string, infos map[string]int) {
	infos = map[string]int{}
	for _, f := range fs {
		if f.Severity == SeverityInfo {
			infos[f.Rule]++
			continue
		}
		serious = append(serious, f.Rule+" "+f.Subject)
	}
	return serious, infos
}

// TestRealServerListings: the listings of three real servers give no
// error, exactly the warnings each deserves, and the info notes
// expected of them.
func TestRealServerListings(t *testing.T) {
	for _, p := range realPeers {
		t.Run(p.fixture, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", p.fixture))
			if err != nil {
				t.Fatal(err)
			}
			var l listed
			if err := json.Unmarshal(b, &l); err != nil {
				t.Fatal(err)
			}
			serious, infos := summarize(Check(l.offer(p.version, p.transport)))
			if !slices.Equal(serious, p.findings) {
				t.Errorf("warnings and errors:\n got %q\nwant %q", serious, p.findings)
			}
			if !maps.Equal(infos, p.infos) {
				t.Errorf("info notes:\n got %v\nwant %v", infos, p.infos)
			}
		})
	}
}
