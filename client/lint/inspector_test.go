package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// strictTools hold every problem the Inspector's --strict names, at
// paths both tools spell alike, beside a clean tool.
const strictTools = `[
 {"name":"clean","description":"Nothing to report.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}},
 {"name":"bare","description":"Bare booleans.","inputSchema":{"type":"object","properties":{"any":true,"none":false},"additionalProperties":false}},
 {"name":"union","description":"A type list.","inputSchema":{"type":"object","properties":{"maybe":{"type":["string","null"]}}}},
 {"name":"remote","description":"A remote reference.","inputSchema":{"type":"object","properties":{"addr":{"$ref":"https://example.com/address.json"}}}},
 {"name":"loose","description":"Untyped values.","inputSchema":{"type":"object","properties":{"when":{"description":"any time"},"items":{"type":"array","items":{}}}},
  "outputSchema":{"type":"object","properties":{"result":{"title":"anything"}}}}
]`

// fixtureServer is a stdio MCP server in a few lines of Node.js that
// lists strictTools and answers every other request with {}.
const fixtureServer = `const tools = ` + strictTools + `;
require("readline").createInterface({input: process.stdin}).on("line", (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  let result = {};
  if (m.method === "initialize") result = {protocolVersion: m.params.protocolVersion, capabilities: {tools: {}}, serverInfo: {name: "lint-fixture", version: "1"}};
  if (m.method === "tools/list") result = {tools};
  process.stdout.write(JSON.stringify({jsonrpc: "2.0", id: m.id, result}) + "\n");
});`

// inspectorRule is the Inspector's name for each of the four rules.
var inspectorRule = map[string]string{
	"boolean-schema": "schema-boolean", "type-union": "schema-type-union",
	"remote-ref": "schema-remote-ref", "untyped-schema": "schema-untyped",
}

// TestAgreesWithInspectorStrict lists the same tools to the MCP Inspector
// 2.12 CLI with --strict and to Check: the Inspector's findings and
// Check's four portability rules name the same tools, rules, severities
// and paths.
func TestAgreesWithInspectorStrict(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "server.js")
	if err := os.WriteFile(script, []byte(fixtureServer), 0o600); err != nil {
		t.Fatal(err)
	}
	argv := append(peertest.InspectorCLI(t), peertest.Node(t), script, "--method", "tools/list", "--strict", "--format", "json")
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run() // exit 6: the fixture holds an error-severity problem
	var envelope struct {
		SchemaFindings []struct {
			ToolName string `json:"toolName"`
			Findings []struct {
				Rule, Severity, Schema, Path string
			} `json:"findings"`
		} `json:"schemaFindings"`
	}
	if err := json.Unmarshal(out.Bytes(), &envelope); err != nil || len(envelope.SchemaFindings) == 0 {
		t.Fatalf("the Inspector's output: %v\nstdout: %s\nstderr: %s", err, out.String(), errb.String())
	}
	var tools []json.RawMessage
	if err := json.Unmarshal([]byte(strictTools), &tools); err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, raw := range tools {
		var tool struct{ Name string }
		_ = json.Unmarshal(raw, &tool)
		index[tool.Name] = i
	}
	var want []string
	for _, r := range envelope.SchemaFindings {
		for _, f := range r.Findings {
			path := "$.tools[" + strconv.Itoa(index[r.ToolName]) + "]." + f.Schema
			if f.Path != "" {
				path += "." + f.Path
			}
			want = append(want, inspectorRule[f.Rule]+" "+f.Severity+" "+path)
		}
	}
	var got []string
	for _, f := range lint.Check(lint.Offer{Tools: tools}) {
		if slices.Contains([]string{"schema-boolean", "schema-type-union", "schema-remote-ref", "schema-untyped"}, f.Rule) {
			got = append(got, f.Rule+" "+string(f.Severity)+" "+f.Path)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) || len(want) < 6 {
		t.Errorf("Check and the Inspector disagree:\n got %q\nwant %q", got, want)
	}
}
