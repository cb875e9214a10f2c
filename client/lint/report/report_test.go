package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// hostile is server text that would act on a terminal if printed raw.
const hostile = "boom\x1b]0;PWNED\x07\x1b[2J\u009b31m"

// sample is a report with a finding of each severity, one of them about a
// hostile tool name, and a cost table of three entries.
func sample() Report {
	return Report{
		Target:          "node server.js",
		ProtocolVersion: "2025-11-25",
		Findings: []lint.Finding{
			{Rule: "duplicate-tool-name", Severity: lint.SeverityError, Subject: "tool echo", Path: "$.tools[2].name",
				Message: `Two tools are named "echo".`, Fix: "Give each tool a name of its own."},
			{Rule: "missing-description", Severity: lint.SeverityWarning, Subject: "tool " + hostile, Path: "$.tools[1]",
				Message: "The tool " + hostile + " has no description.", Fix: "Describe what it does in one sentence."},
			{Rule: "long-description", Severity: lint.SeverityInfo, Subject: "prompt greet", Path: "$.prompts[0].description",
				Message: "The description is long.", Fix: "Shorten it."},
		},
		Rules: []lint.Rule{{ID: "duplicate-tool-name", Severity: lint.SeverityError, Summary: "Tool names are unique."}},
		Cost: tokencost.Table{
			Encodings: []string{"o200k_base", "cl100k_base"},
			Items: []tokencost.Item{
				{Kind: tokencost.KindTool, Name: "echo", Tokens: map[string]int{"o200k_base": 1200, "cl100k_base": 1300}},
				{Kind: tokencost.KindTool, Name: hostile, Tokens: map[string]int{"o200k_base": 80, "cl100k_base": 81}},
				{Kind: tokencost.KindPrompt, Name: "greet", Tokens: map[string]int{"o200k_base": 20, "cl100k_base": 20}},
			},
			Total:  map[string]int{"o200k_base": 1300, "cl100k_base": 1401},
			Window: tokencost.DefaultWindow,
		},
	}
}

// assertNoEscapes fails when out holds a byte a terminal would act on.
func assertNoEscapes(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.IndexAny(out, "\x1b\x07\u009b"); i >= 0 {
		t.Errorf("%s holds a raw control at byte %d: %q", what, i, out[max(i-40, 0):min(i+40, len(out))])
	}
}

func TestTextGroupsFindingsAndTabulatesCost(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, sample(), nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	assertNoEscapes(t, "text", out)
	for _, want := range []string{
		"mcpscope lint node server.js (protocol 2025-11-25)\n",
		"errors (1)\n  duplicate-tool-name  tool echo  $.tools[2].name\n    Two tools are named \"echo\".\n    fix: Give each tool a name of its own.\n",
		"warnings (1)\n", "info (1), one line a rule (--verbose lists each)\n  long-description (1): prompt greet\n",
		`tool boom\x1b]0;PWNED\x07\x1b[2J\u009b31m`,
		"O200K_BASE", "CL100K_BASE", "% OF 200k",
		"1 error, 1 warning, 1 info; 1,300 tokens (o200k_base), 0.7% of a 200k window\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	// The table's rows: dearest first, numbers right-aligned under their heading, then the total.
	lines := strings.Split(out, "\n")
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "  tool ") || strings.HasPrefix(l, "  prompt ") || strings.HasPrefix(l, "  total ") || strings.HasPrefix(l, "  KIND") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 5 || !strings.Contains(rows[1], "echo") || !strings.Contains(rows[4], "2 tools, 1 prompt") {
		t.Fatalf("rows %q", rows)
	}
	end := strings.Index(rows[0], "O200K_BASE") + len("O200K_BASE")
	for _, r := range rows[1:] {
		if len(r) < end || r[end-1] == ' ' {
			t.Errorf("row %q is not right-aligned under O200K_BASE (column ends at %d)", r, end)
		}
	}
}

func TestTextPaletteColoursOnlyWhenAsked(t *testing.T) {
	var plain, coloured bytes.Buffer
	p := theme.For(true)
	_ = WriteText(&plain, sample(), nil)
	_ = WriteText(&coloured, sample(), &p)
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("plain text holds an SGR sequence")
	}
	if !strings.Contains(coloured.String(), "\x1b[") {
		t.Error("coloured text holds no SGR sequence")
	}
}

func TestTextNoFindings(t *testing.T) {
	r := sample()
	r.Findings = nil
	var b bytes.Buffer
	_ = WriteText(&b, r, nil)
	if !strings.Contains(b.String(), "no findings\n") || !strings.Contains(b.String(), "0 errors, 0 warnings, 0 info;") {
		t.Errorf("text:\n%s", b.String())
	}
}

func TestJSONSchemaIsStable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Target   string         `json:"target"`
		Summary  map[string]int `json:"summary"`
		Findings []lint.Finding `json:"findings"`
		Rules    []lint.Rule    `json:"rules"`
		Cost     struct {
			Encodings []string `json:"encodings"`
			Items     []struct {
				Kind, Name string
				Tokens     map[string]int
			} `json:"items"`
			Total  map[string]int `json:"total"`
			Window int            `json:"window"`
		} `json:"cost"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Target != "node server.js" || doc.Summary["error"] != 1 || doc.Summary["warning"] != 1 || doc.Summary["info"] != 1 ||
		len(doc.Findings) != 3 || doc.Findings[0].Path != "$.tools[2].name" || doc.Findings[1].Subject != "tool "+hostile ||
		len(doc.Rules) != 3 || doc.Cost.Window != 200000 || doc.Cost.Items[0].Tokens["cl100k_base"] != 1300 ||
		doc.Cost.Items[0].Kind != "tool" || doc.Cost.Total["o200k_base"] != 1300 || doc.Cost.Encodings[1] != "cl100k_base" {
		t.Errorf("doc %+v\n%s", doc, b.String())
	}
	// An empty report prints empty arrays, not null.
	b.Reset()
	_ = WriteJSON(&b, Report{Target: "x"})
	if s := b.String(); !strings.Contains(s, `"findings":[]`) || !strings.Contains(s, `"rules":[]`) || !strings.Contains(s, `"items":[]`) {
		t.Errorf("empty report %s", s)
	}
}

func TestSARIFStructure(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, sample(), Options{Version: "1.2.3", Artifact: "server.json"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version string
					Rules         []struct {
						ID                   string
						ShortDescription     *struct{ Text string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
					LogicalLocations []struct{ Name, FullyQualifiedName string }
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("log %+v", log)
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "mcpscope" || d.Version != "1.2.3" || len(d.Rules) != 3 || d.Rules[0].ID != "duplicate-tool-name" ||
		d.Rules[0].ShortDescription == nil || d.Rules[0].DefaultConfiguration.Level != "error" || d.Rules[2].DefaultConfiguration.Level != "note" {
		t.Errorf("driver %+v", d)
	}
	if len(run.Results) != 3 {
		t.Fatalf("results %+v", run.Results)
	}
	for i, want := range []struct{ level, path string }{{"error", "$.tools[2].name"}, {"warning", "$.tools[1]"}, {"note", "$.prompts[0].description"}} {
		res := run.Results[i]
		loc := res.Locations[0]
		if res.Level != want.level || d.Rules[res.RuleIndex].ID != res.RuleID || loc.LogicalLocations[0].FullyQualifiedName != want.path ||
			loc.PhysicalLocation == nil || loc.PhysicalLocation.ArtifactLocation.URI != "server.json" || loc.PhysicalLocation.Region.StartLine != 1 ||
			len(res.PartialFingerprints[fingerprintKey]) != 32 || !strings.Contains(res.Message.Text, "Fix: ") {
			t.Errorf("result %d: %+v", i, res)
		}
	}
	if run.Results[0].PartialFingerprints[fingerprintKey] == run.Results[1].PartialFingerprints[fingerprintKey] {
		t.Error("two findings share a fingerprint")
	}
	// Without an artifact a result carries its logical location alone.
	b.Reset()
	_ = WriteSARIF(&b, sample(), Options{})
	if strings.Contains(b.String(), "physicalLocation") {
		t.Error("physicalLocation without --artifact")
	}
}

func TestJUnitParsesAndFailsPerSubject(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, sample()); err != nil {
		t.Fatal(err)
	}
	assertNoEscapes(t, "junit", b.String())
	var suite struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(b.Bytes(), &suite); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if suite.Tests != 3 || suite.Failures != 2 || suite.Name != "mcpscope lint" {
		t.Fatalf("suite %+v", suite)
	}
	cases := suite.Cases
	echo, bad, greet := cases[0], cases[1], cases[2]
	if echo.Name != "echo" || echo.Classname != "tool" || echo.Failure == nil || echo.Failure.Type != "error" ||
		!strings.Contains(echo.Failure.Text, "duplicate-tool-name at $.tools[2].name") || !strings.Contains(echo.Failure.Text, "Fix: Give each") {
		t.Errorf("echo %+v", echo)
	}
	if bad.Failure == nil || bad.Failure.Type != "warning" || !strings.Contains(bad.Name, `\x1b]0;PWNED`) {
		t.Errorf("hostile %+v", bad)
	}
	if greet.Failure != nil || !strings.Contains(greet.SystemOut, "long-description") {
		t.Errorf("greet %+v", greet)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("%s: %v %v", f, got, err)
		}
	}
	if _, err := ParseFormat("yaml"); err == nil || !strings.Contains(err.Error(), "text, json, sarif, junit") {
		t.Errorf("yaml: %v", err)
	}
}

// FuzzReport: whatever text a server's entries and the findings about them
// hold, every format prints without a panic, text and JUnit hold nothing a
// terminal acts on, JSON and SARIF parse, and JUnit is well-formed XML.
func FuzzReport(f *testing.F) {
	f.Add("echo", "tool echo", "$.tools[0]", "msg", "fix")
	f.Add(hostile, "tool "+hostile, "$.tools["+hostile+"]", hostile, "\xff\xfe")
	f.Fuzz(func(t *testing.T, name, subject, path, message, fix string) {
		r := sample()
		r.Findings = append(r.Findings, lint.Finding{Rule: name, Severity: lint.Severity(fix), Subject: subject, Path: path, Message: message, Fix: fix})
		r.Cost.Items = append(r.Cost.Items, tokencost.Item{Kind: tokencost.KindResourceTemplate, Name: name, Tokens: map[string]int{"o200k_base": 1}})
		for _, format := range Formats {
			var b bytes.Buffer
			if err := Write(&b, format, r, Options{Artifact: "server.json"}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			switch format {
			case Text:
				assertNoEscapes(t, "text", b.String())
			case JUnit:
				assertNoEscapes(t, "junit", b.String())
				if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
					t.Fatalf("junit: %v\n%s", err, b.String())
				}
			default:
				if !json.Valid(b.Bytes()) {
					t.Fatalf("%s is not JSON: %s", format, b.String())
				}
			}
		}
	})
}
