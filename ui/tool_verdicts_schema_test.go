package ui

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/findings"
)

// The findings of a small result of a tool whose outputSchema is past
// inlineVerdictBytes are judged in the job of its call's verdict, not in
// the Update that reads it (where the first would compile the schema):
// they arrive with the verdict, and the schema is compiled once for both.
func TestSmallResultLargeSchemaFindingsJudgedApart(t *testing.T) {
	compiles := countCompiles(t)
	st := rowsStoreOf(t, hugeRowsSchema(), true, 1<<10)
	m, cmd := readKept(t, st)
	if text, _ := m.idx.findingsPart(); text != "" {
		t.Fatalf("findings before the verdict: %q", text)
	}
	v := verdictOf(t, cmd, 4)
	if !v.judged || v.failure == nil || len(v.found) != 1 {
		t.Fatalf("the job judged %v (%v), found %d", v.judged, v.failure, len(v.found))
	}
	m.Update(v)
	if text, _ := m.idx.findingsPart(); text != "1 error" {
		t.Errorf("findings after the verdict: %q, want 1 error", text)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("the verdict and the findings compiled the schema %d times", n)
	}
}

// Jobs of findings alone (the index kept no schema of the tool) judge
// with the schema their detector compiled once for the tool, not each
// with a compile of its own.
func TestFindingsJobsShareTheirDetectorsCompile(t *testing.T) {
	compiles := countCompiles(t)
	st := rowsStoreOf(t, hugeRowsSchema(), true, 1<<10, 1<<10)
	d := findings.NewDetector()
	d.DeferOver(inlineVerdictBytes)
	for _, f := range st.Window(1, 6) {
		d.Note(f)
	}
	var found []findings.Finding
	for _, x := range d.TakeDeferred() {
		found = append(found, verdictJob{seq: x.Seq(), finds: []findings.Deferred{x}}.run(0).found...)
	}
	if len(found) != 1 || found[0].Seq != 4 {
		t.Errorf("the jobs found %+v, want the first result's finding", found)
	}
	if n := compiles.Load(); n != 0 {
		t.Errorf("2 jobs of findings compiled the schema %d times themselves", n)
	}
}

// With no room for a job, the results of a tool whose outputSchema is past
// inlineVerdictBytes are judged where they are read, their verdicts and
// the detail's report against the schema its listing compiled once, not
// each against a compile of its own.
func TestNoRoomJudgesWithTheListingsCompile(t *testing.T) {
	compiles := countCompiles(t)
	st := rowsStoreOf(t, hugeRowsSchema(), true, 1<<10, 1<<10)
	m := keptModel(t, st)
	m.idx.verdicts.bytes = maxVerdictBytes // no room left
	readWhole(m)
	if label, bad := rowOf(t, m, 4); !strings.HasPrefix(label, "result ✗ outputSchema") || !bad {
		t.Errorf("the first result reads %q (failed %v)", label, bad)
	}
	if label, bad := rowOf(t, m, 6); !strings.HasPrefix(label, "result · tools/call rows") || bad {
		t.Errorf("the second result reads %q (failed %v)", label, bad)
	}
	if d := detailText(m); !strings.Contains(d, "structuredContent:") || strings.Contains(d, checkingReportText) {
		t.Errorf("the detail of the second result:\n%s", d)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("the listing's schema was compiled %d times for 2 verdicts and a report, want once", n)
	}
}

// The outputSchemas the index keeps, each compiled once for its listing,
// take no more per byte of their text than toolSchemasBound, their share
// of indexMemoryBound, allows per byte of maxToolSchemaBytes: a compiled
// schema keeps several times its text. The schemas are as dense as a
// schema mcpscope compiles may be (about 4000 subschemas in 170 KiB).
func TestCompiledToolSchemasWithinBound(t *testing.T) {
	const tools = 2
	schema := rowsSchemaPast(170 << 10)
	var list []string
	for i := range tools {
		list = append(list, `{"name":"rows`+strconv.Itoa(i)+`","outputSchema":`+schema+`}`)
	}
	base := liveHeap()
	var ts toolSchemas
	ts.note("c", json.RawMessage(`{"tools":[`+strings.Join(list, ",")+`]}`))
	if len(ts.byTool) != tools {
		t.Fatalf("the index kept %d schemas of %d bytes, want %d", len(ts.byTool), len(schema), tools)
	}
	for name := range ts.byTool {
		if _, err := ts.compiledApart("c", name)(); err != nil {
			t.Fatal(err)
		}
	}
	got, text := liveHeap()-base, int64(ts.size)
	t.Logf("%d schemas of %d KiB, compiled: %.1f MiB, %.1f× their text", tools, len(schema)>>10, float64(got)/(1<<20), float64(got)/float64(text))
	if bound := text * toolSchemasBound / maxToolSchemaBytes; got > bound {
		t.Errorf("the schemas kept and compiled hold %.1f MiB, over their share of the bound, %.1f MiB", float64(got)/(1<<20), float64(bound)/(1<<20))
	}
	runtime.KeepAlive(&ts)
}
