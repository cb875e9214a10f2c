package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Stub modes for lint: "lint-duplicate" lists two tools named echo,
// "lint-hostile" a tool whose name and description carry escape sequences.
// Both declare prompts and resources and answer their lists with -32601.
func init() {
	stubRequestHooks["lint-duplicate"] = lintToolsStub(`[{"name":"echo","description":"Echoes.","inputSchema":{"type":"object"}},` +
		`{"name":"echo","description":"Echoes again.","inputSchema":{"type":"object"}}]`)
	hostile, _ := json.Marshal([]map[string]any{{"name": hostileText, "description": hostileText, "inputSchema": map[string]any{"type": "object"}}})
	stubRequestHooks["lint-hostile"] = lintToolsStub(string(hostile))
}

// lintToolsStub answers tools/list with tools; everything else as the stub does.
func lintToolsStub(tools string) func(out *bufio.Writer, method string, id json.RawMessage) bool {
	return func(out *bufio.Writer, method string, id json.RawMessage) bool {
		switch method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25",`+
				`"capabilities":{"tools":{},"prompts":{},"resources":{}},"serverInfo":{"name":"stub","version":"1"}}}`+"\n", id)
		case "tools/list":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}`+"\n", id, tools)
		default:
			return false
		}
		out.Flush()
		return true
	}
}

// lintDoc is lint's JSON report.
type lintDoc struct {
	Summary  map[string]int `json:"summary"`
	Findings []lint.Finding `json:"findings"`
	Rules    []lint.Rule    `json:"rules"`
	Cost     struct {
		Counted   string   `json:"counted"`
		Uncounted int      `json:"uncounted"`
		Encodings []string `json:"encodings"`
		Items     []struct {
			Kind   string         `json:"kind"`
			Name   string         `json:"name"`
			Tokens map[string]int `json:"tokens"`
		} `json:"items"`
		Total  map[string]int `json:"total"`
		Window int            `json:"window"`
	} `json:"cost"`
}

// lintJSON runs lint --format json on target (its last words: a URL, or
// -- and a command) and checks what holds whatever
// the rules find: exit 6 exactly when a finding is of error severity, the
// cost table sorted, its totals the sums of its items.
func lintJSON(t *testing.T, target []string) lintDoc {
	t.Helper()
	r := mcpscope(t, append([]string{"lint", "--format", "json"}, target...)...)
	var doc lintDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not lint's JSON (exit %d): %v\n%s\nstderr: %s", r.code, err, r.stdout, r.stderr)
	}
	if want := map[bool]int{true: ExitLint, false: ExitOK}[doc.Summary["error"] > 0]; r.code != want {
		t.Errorf("exit %d with %d errors, want %d\nstderr: %s", r.code, doc.Summary["error"], want, r.stderr)
	}
	if doc.Findings == nil || doc.Rules == nil || doc.Cost.Window != 200000 || len(doc.Cost.Items) == 0 ||
		strings.Join(doc.Cost.Encodings, ",") != "o200k_base,cl100k_base" {
		t.Errorf("report %+v", doc)
	}
	for _, enc := range doc.Cost.Encodings {
		sum := 0
		for i, it := range doc.Cost.Items {
			sum += it.Tokens[enc]
			if it.Tokens[enc] <= 0 || i > 0 && enc == doc.Cost.Encodings[0] && it.Tokens[enc] > doc.Cost.Items[i-1].Tokens[enc] {
				t.Errorf("item %d %+v: no cost, or dearer than the one before", i, it)
			}
		}
		if doc.Cost.Total[enc] != sum {
			t.Errorf("%s total %d, the items sum to %d", enc, doc.Cost.Total[enc], sum)
		}
	}
	return doc
}

// lint works against each real server and the demo.
func TestLintPeers(t *testing.T) {
	for _, c := range []struct {
		name   string
		target func(t *testing.T) []string
	}{
		{"typescript", func(t *testing.T) []string { return withTarget(peertest.TSEverything(t, "stdio")) }},
		{"gosdk-conformance", func(t *testing.T) []string { return withTarget([]string{peertest.GoSDKConformance(t)}) }},
		{"gosdk-conformance-http", func(t *testing.T) []string { return []string{peertest.StartGoSDKConformanceHTTP(t, true).URL} }},
		{"mark3labs", func(t *testing.T) []string { return withTarget(peertest.Mark3labsEverything(t)) }},
		{"demo", func(t *testing.T) []string {
			argv, env := stubArgv(t, serveStdioMode)
			return withTarget(argv, "--env", env)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			doc := lintJSON(t, c.target(t))
			kinds := map[string]bool{}
			for _, it := range doc.Cost.Items {
				kinds[it.Kind] = true
			}
			if !kinds["tool"] {
				t.Errorf("no tool in the cost table: %+v", doc.Cost.Items)
			}
		})
	}
}

// Each tool's cost equals the tokenizer library's own count of what a
// host sends the model, {"name","description","inputSchema"} as the
// server listed them in compact JSON; with --count entry, of the tool's
// whole tools/list entry as `mcpscope tools` prints it. The Go SDK
// server's tool with a data-URI icon costs its icon only counted whole.
func TestLintCostEqualsLibraryCount(t *testing.T) {
	t.Parallel()
	argv := peertest.GoSDKEverything(t)
	r := mcpscope(t, withTarget(argv, "tools")...)
	r.mustExit(t, ExitOK)
	var listed struct{ Tools []json.RawMessage }
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil {
		t.Fatal(err)
	}
	model := lintJSON(t, withTarget(argv))
	entry := lintJSON(t, withTarget(argv, "--count", "entry"))
	if model.Cost.Counted != "model" || entry.Cost.Counted != "entry" {
		t.Errorf("counted %q and %q", model.Cost.Counted, entry.Cost.Counted)
	}
	compareCost(t, model, listed.Tools, func(raw json.RawMessage) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		text := `{"name":` + string(m["name"])
		if d, ok := m["description"]; ok {
			text += `,"description":` + string(d)
		}
		return text + `,"inputSchema":` + string(m["inputSchema"]) + "}"
	})
	compareCost(t, entry, listed.Tools, func(raw json.RawMessage) string { return string(raw) })
	for _, it := range model.Cost.Items {
		if strings.Contains(it.Name, "Icons") && it.Tokens["o200k_base"] > 200 {
			t.Errorf("%s costs %d tokens: its icon is counted", it.Name, it.Tokens["o200k_base"])
		}
	}
}

// compareCost checks each tool's cost in doc against the library's count
// of the compact JSON of text(entry).
func compareCost(t *testing.T, doc lintDoc, tools []json.RawMessage, text func(json.RawMessage) string) {
	t.Helper()
	want := map[string]map[string]int{}
	for _, raw := range tools {
		var tool struct{ Name string }
		var compact bytes.Buffer
		if json.Unmarshal(raw, &tool) != nil || json.Compact(&compact, []byte(text(raw))) != nil {
			t.Fatalf("entry %s", raw)
		}
		want[tool.Name] = map[string]int{}
		for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
			codec, err := tokenizer.Get(enc)
			if err != nil {
				t.Fatal(err)
			}
			ids, _, _ := codec.Encode(compact.String())
			want[tool.Name][string(enc)] = len(ids)
		}
	}
	compared := 0
	for _, it := range doc.Cost.Items {
		if w, ok := want[it.Name]; ok && it.Kind == "tool" {
			compared++
			if it.Tokens["o200k_base"] != w["o200k_base"] || it.Tokens["cl100k_base"] != w["cl100k_base"] {
				t.Errorf("tool %s: lint counts %v, the library %v", it.Name, it.Tokens, w)
			}
		}
	}
	if compared != len(tools) || compared < 5 {
		t.Errorf("compared %d tools of %d listed", compared, len(tools))
	}
}

// SARIF on stdout and JUnit into --output (its format from the file's
// extension) against the mark3labs server.
func TestLintSARIFAndJUnit(t *testing.T) {
	t.Parallel()
	argv := peertest.Mark3labsEverything(t)
	r := mcpscope(t, withTarget(argv, "lint", "--format", "sarif", "--artifact", "server.json")...)
	var log struct {
		Version string
		Runs    []struct {
			Tool    struct{ Driver struct{ Name string } }
			Results []struct{ RuleID, Level string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 ||
		log.Runs[0].Tool.Driver.Name != "mcpscope" || log.Runs[0].Results == nil {
		t.Fatalf("sarif (exit %d, %v): %s", r.code, err, r.stdout)
	}
	path := filepath.Join(t.TempDir(), "lint.xml")
	r = mcpscope(t, withTarget(argv, "lint", "--output", path)...)
	if r.stdout != "" || r.code != ExitOK && r.code != ExitLint {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Name  string `xml:"name,attr"`
		Tests int    `xml:"tests,attr"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(raw, &suite); err != nil || suite.Name != "mcpscope lint" ||
		suite.Tests < 5 || suite.Tests != len(suite.Cases) {
		t.Fatalf("junit (%v): %s", err, raw)
	}
	seen := map[string]bool{}
	for _, c := range suite.Cases {
		if seen[c.Classname+" "+c.Name] {
			t.Errorf("two test cases for %s %s", c.Classname, c.Name)
		}
		seen[c.Classname+" "+c.Name] = true
	}
}

// A finding of error severity exits 6, its report printed all the same:
// a server that lists two tools named echo breaks the duplicate-name rule.
func TestLintErrorFindingExitsSix(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "lint-duplicate")
	r := mcpscope(t, withTarget(argv, "lint", "--env", env, "--format", "text")...)
	r.mustExit(t, ExitLint)
	for _, want := range []string{"errors (1)\n  name-duplicate  tool \"echo\"  $.tools[1].name\n", "1 error, 0 warnings"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "lint: 1 finding of error severity") {
		t.Errorf("stderr %q", r.stderr)
	}
}

// A hostile server's tool name and description never reach stdout raw.
func TestLintHostileTextIsEscaped(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "lint-hostile")
	r := mcpscope(t, withTarget(argv, "lint", "--env", env, "--format", "text")...)
	if r.code != ExitOK && r.code != ExitLint {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	assertNoEscapes(t, "stdout", r.stdout)
	assertNoEscapes(t, "stderr", r.stderr)
	if !strings.Contains(r.stdout, hostileShown) {
		t.Errorf("stdout does not show the name escaped:\n%s", r.stdout)
	}
}

// Bad lint flags are usage errors, refused before anything starts.
func TestLintUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--format", "yaml"},
		{"--tokenizer", "o300k_base"},
		{"--window", "0"},
		{"--count", "all"},
	} {
		r := mcpscope(t, withTarget([]string{"false"}, append([]string{"lint"}, args...)...)...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, strings.TrimPrefix(args[0], "--")) {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	// A report that cannot be written is refused before the server starts.
	r := mcpscope(t, withTarget([]string{"false"}, "lint", "--output", filepath.Join(t.TempDir(), "no", "such", "dir", "lint.sarif"))...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "its directory does not exist") {
		t.Errorf("unwritable --output: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Counting that outlasts --max-time still prints the report, its cost
// marked incomplete with what was counted, and exits 4; an encoding
// named twice counts once; --output through a symlink keeps the link.
func TestLintCountTimeoutKeepsReport(t *testing.T) {
	// Not parallel: it replaces the counting of every lint run with one
	// whose time runs out after the first entry.
	measureCost = func(ctx context.Context, encodings []string, window int, entries []tokencost.Entry) (tokencost.Table, error) {
		t, _ := tokencost.Measure(ctx, encodings, window, entries[:1])
		t.Uncounted = len(entries) - 1
		return t, fmt.Errorf("counting: %w", context.DeadlineExceeded)
	}
	defer func() { measureCost = tokencost.Measure }()
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	if err := os.Symlink("real.json", out); err != nil {
		t.Fatal(err)
	}
	argv, env := stubArgv(t, "lint-duplicate")
	r := mcpscope(t, withTarget(argv, "lint", "--env", env, "--tokenizer", "cl100k_base,cl100k_base", "--output", out)...)
	r.mustExit(t, ExitTimeout)
	if fi, err := os.Lstat(out); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("--output's symlink was replaced: %v, %v", fi, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "real.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc lintDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if doc.Cost.Uncounted != 1 || len(doc.Cost.Items) != 1 || doc.Cost.Items[0].Name != "echo" ||
		len(doc.Cost.Encodings) != 1 || doc.Cost.Total["cl100k_base"] != doc.Cost.Items[0].Tokens["cl100k_base"] || doc.Findings == nil {
		t.Errorf("report %+v", doc)
	}
	if !strings.Contains(r.stderr, "counts 1 of 2 entries") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = mcpscope(t, withTarget(argv, "lint", "--env", env, "--format", "text")...)
	r.mustExit(t, ExitTimeout)
	if !strings.Contains(r.stdout, "incomplete: counting stopped; 1 entry counted, 1 not") {
		t.Errorf("text report:\n%s", r.stdout)
	}
}

func TestLintDarkBackground(t *testing.T) {
	for in, want := range map[string]bool{"": true, "15;0": true, "0;15": false, "0;7": false, "12;8": true, "default;default": true, "0;default;15": false} {
		if got := darkBackground(in); got != want {
			t.Errorf("darkBackground(%q) = %v, want %v", in, got, want)
		}
	}
}

// A report that cannot be saved (a name longer than the file system
// takes) exits 3, as a result that cannot be saved does.
func TestLintReportWriteFailureExitsThree(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "lint-duplicate")
	out := filepath.Join(t.TempDir(), strings.Repeat("x", 300)+".json")
	r := mcpscope(t, withTarget(argv, "lint", "--env", env, "--output", out)...)
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "lint: cannot save the report") {
		t.Errorf("stderr %q", r.stderr)
	}
}
