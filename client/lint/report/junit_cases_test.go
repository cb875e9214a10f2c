package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
)

// The findings lint.Check makes fall into the test case of the entry
// they concern: a case per listed entry, named or not, never a second
// case for the same tool.
func TestJUnitOneCasePerEntry(t *testing.T) {
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"echo","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"inputSchema":{"type":"object","properties":{"x":{}}}}`),
	}
	prompts := []json.RawMessage{json.RawMessage(`{"name":"greet"}`)}
	offer := lint.Offer{Tools: tools, Prompts: prompts}
	entries := append(tokencost.Entries(tokencost.KindTool, tools), tokencost.Entries(tokencost.KindPrompt, prompts)...)
	cost, err := tokencost.Measure(context.Background(), []string{"cl100k_base"}, tokencost.DefaultWindow, entries)
	if err != nil {
		t.Fatal(err)
	}
	findings := lint.Check(offer)
	if len(findings) == 0 {
		t.Fatal("no findings to place")
	}
	var b bytes.Buffer
	if err := WriteJUnit(&b, Report{Findings: findings, Rules: lint.Rules(), Cost: cost}); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests int `xml:"tests,attr"`
		Cases []struct {
			Name string `xml:"name,attr"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(b.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Tests != len(entries) || len(s.Cases) != len(entries) {
		t.Fatalf("%d entries, %d test cases:\n%s", len(entries), s.Tests, b.String())
	}
}
