package lint

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// allocatedBy is how many bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// commonWordTools are n distinct tools, each described by 10 words drawn
// from a pool of 20: every word is in half the tools.
func commonWordTools(n int) []json.RawMessage {
	rng := rand.New(rand.NewSource(1))
	tools := make([]json.RawMessage, n)
	for i := range tools {
		var ws []string
		for _, p := range rng.Perm(20)[:10] {
			ws = append(ws, "w"+strconv.Itoa(p))
		}
		tools[i] = json.RawMessage(fmt.Sprintf(`{"name":"t%d","description":%q,"inputSchema":{"type":"object"}}`, i, strings.Join(ws, " ")))
	}
	return tools
}

// TestNearDuplicateSearchIsLinear: thousands of distinct tools built from
// a small vocabulary make every word common; the search compares each
// tool with a bounded number of others, allocates little, and says once
// that it compared only some pairs.
func TestNearDuplicateSearchIsLinear(t *testing.T) {
	comparisons := map[int]int{}
	for _, n := range []int{2000, 8000} {
		sets := tokenSets(decodeOffer(Offer{Tools: commonWordTools(n)}))
		s := findSimilar(sets, &report{})
		comparisons[n] = s.compared
		if perTool := s.compared / n; perTool > 2*maxPostings {
			t.Errorf("%d tools: %d comparisons, %d a tool", n, s.compared, perTool)
		}
	}
	if comparisons[8000] > 5*comparisons[2000] {
		t.Errorf("comparisons grow faster than the tools: %v", comparisons)
	}
	o := Offer{Tools: commonWordTools(8000)}
	var fs []Finding
	if b := allocatedBy(func() { fs = Check(o) }); b > 256<<20 {
		t.Errorf("Check of 8,000 tools allocated %d MB", b>>20)
	}
	if p := findingsOf(fs, "tool-near-duplicate-partial"); len(p) != 1 || p[0].Severity != SeverityInfo {
		t.Errorf("partial findings: %+v", p)
	}
}

// TestNearDuplicateSearchStillFindsTwins: the bounds leave the search
// exact on a listing of ordinary size, common words and all.
func TestNearDuplicateSearchStillFindsTwins(t *testing.T) {
	tools := commonWordTools(200)
	twin := strings.Replace(string(tools[7]), `"name":"t7"`, `"name":"twin"`, 1)
	fs := Check(Offer{Tools: append(tools, json.RawMessage(twin))})
	if d := findingsOf(fs, "tool-near-duplicate"); len(d) != 1 || d[0].Subject != `tool "twin"` {
		t.Errorf("near duplicates: %+v", d)
	}
}

// chainedSchemaTool is a tool whose input schema nests 60 levels through
// 200-byte keys, then holds n untyped properties: every one a finding at
// a path of some 12 KB.
func chainedSchemaTool(n int) json.RawMessage {
	key := strings.Repeat("k", 200)
	var sib []string
	for i := range n {
		sib = append(sib, fmt.Sprintf(`"s%d":{}`, i))
	}
	inner := `{"properties":{` + strings.Join(sib, ",") + `}}`
	s := strings.Repeat(`{"properties":{"`+key+`":`, 60) + inner + strings.Repeat(`}}`, 60)
	return json.RawMessage(`{"name":"amp","description":"x","inputSchema":{"type":"object","properties":{"a":` + s + `}}}`)
}

// TestSchemaFindingsAreBounded: a rule keeps maxPerRule findings about a
// tool and counts the rest in one more; a path keeps its head and tail
// within about pathMax bytes; memory stays small.
func TestSchemaFindingsAreBounded(t *testing.T) {
	o := Offer{Tools: []json.RawMessage{chainedSchemaTool(10000)}}
	var fs []Finding
	if b := allocatedBy(func() { fs = Check(o) }); b > 64<<20 {
		t.Errorf("Check allocated %d MB", b>>20)
	}
	untyped := findingsOf(fs, "schema-untyped")
	if len(untyped) != maxPerRule+1 {
		t.Fatalf("%d schema-untyped findings, want %d", len(untyped), maxPerRule+1)
	}
	last := untyped[maxPerRule]
	if want := fmt.Sprintf("…and %d more findings", 10000-maxPerRule); !strings.HasPrefix(last.Message, want) || last.Path != "$.tools[0]" {
		t.Errorf("last finding %+v, want %q", last, want)
	}
	for _, f := range fs {
		if len(f.Path) > pathMax+8 || len(f.Message) > 4096 {
			t.Errorf("%s: path of %d bytes, message of %d", f.Rule, len(f.Path), len(f.Message))
		}
	}
	if p := untyped[0].Path; !strings.HasPrefix(p, "$.tools[0].inputSchema.properties.a") || !strings.Contains(p, "…") || !strings.HasSuffix(p, "properties.s0") {
		t.Errorf("shortened path %q", p)
	}
}

// TestRequiredUndeclaredListsTenNames: a message names ten undeclared
// properties and counts the rest.
func TestRequiredUndeclaredListsTenNames(t *testing.T) {
	var req []string
	for i := range 5000 {
		req = append(req, `"r`+strconv.Itoa(i)+`"`)
	}
	fs := findingsOf(Check(tools(withSchema("a", `{"type":"object","properties":{},"required":[`+strings.Join(req, ",")+`]}`))), "schema-required-undeclared")
	if len(fs) != 1 || !strings.HasSuffix(fs[0].Message, `"r9", and 4990 more`) {
		t.Errorf("findings %+v", fs)
	}
}

// TestStrictModeCountsRequiredInLinearTime: an object of 400,000
// properties, all required (and some listed twice), is ready for strict
// mode; counting them is one pass, not one scan a name.
func TestStrictModeCountsRequiredInLinearTime(t *testing.T) {
	const n = 400_000
	props := make(map[string]any, n)
	req := make([]any, 0, n+2)
	for i := range n {
		k := "p" + strconv.Itoa(i)
		props[k] = map[string]any{"type": "string"}
		req = append(req, k)
	}
	req = append(req, "p0", "undeclared")
	done := make(chan int, 1)
	go func() { done <- declaredRequired(map[string]any{"required": req}, props) }()
	select {
	case got := <-done:
		if got != n {
			t.Errorf("declaredRequired = %d, want %d", got, n)
		}
	case <-time.After(guard.Hang):
		t.Fatalf("counting %d required names took longer than %v", n, guard.Hang)
	}
}

// TestLongPathsKeepHeadAndTail: a path past pathMax keeps its head and
// its last key, cut on character boundaries, however it grows.
func TestLongPathsKeepHeadAndTail(t *testing.T) {
	p := "$.tools[0].inputSchema"
	for i := range 300 {
		p = member(p, "ключ"+strconv.Itoa(i))
		if len(p) > pathMax+8 || !utf8.ValidString(p) || !strings.HasPrefix(p, "$.tools[0].inputSchema") {
			t.Fatalf("step %d: path %q", i, p)
		}
	}
	if !strings.HasSuffix(p, `["ключ299"]`) || strings.Count(p, "…") != 1 {
		t.Errorf("path %q", p)
	}
}
