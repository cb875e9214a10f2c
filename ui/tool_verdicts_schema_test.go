package ui

import (
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
