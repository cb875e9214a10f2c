package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/load"
)

// manyKinds is an engine's errors of n kinds, kind i counted i+1 times.
func manyKinds(n int) map[string]int {
	errs := make(map[string]int, n)
	for i := range n {
		errs[fmt.Sprintf("kind %03d", i)] = i + 1
	}
	return errs
}

// The feed keeps of the engine's errors the maxKinds most frequent kinds
// and the count of the others: what it copies ten times a second does
// not grow with the kinds, and no error is lost from the total.
func TestFeedCapsTheKinds(t *testing.T) {
	fd := newFeed()
	fd.put(load.Snapshot{Errors: manyKinds(1000)})
	got := (<-fd.latest).Errors
	if len(got) != maxKinds+1 {
		t.Fatalf("the feed kept %d kinds, want %d and %q", len(got), maxKinds, otherKinds)
	}
	for i := 999; i > 999-maxKinds; i-- {
		if k := fmt.Sprintf("kind %03d", i); got[k] != i+1 {
			t.Errorf("%s: %d, want %d", k, got[k], i+1)
		}
	}
	total := 0
	for _, n := range got {
		total += n
	}
	if total != 1000*1001/2 {
		t.Errorf("the kinds kept count %d errors, want all %d", total, 1000*1001/2)
	}
	fd.put(load.Snapshot{Errors: map[string]int{"timeout": 2}})
	if got := (<-fd.latest).Errors; len(got) != 1 || got["timeout"] != 2 {
		t.Errorf("a few kinds: %v", got)
	}
}

// The errors line shows the most frequent kinds, then the others
// together, and the total of all; so does the final snapshot's.
func TestErrorsLineOtherKinds(t *testing.T) {
	f := newFixture(t)
	f.r.Press("enter")
	run := f.held.next(t)
	run.end <- load.Snapshot{Completed: 100, Errors: manyKinds(12)}
	f.r.Until("the run ends", func() bool { return strings.Contains(f.r.ScreenText(), "done in") })
	if len(f.b.snap.Errors) != maxKinds+1 {
		t.Errorf("the final snapshot keeps %d kinds", len(f.b.snap.Errors))
	}
	line := f.b.errorsLine()
	for _, want := range []string{"78: kind 011 ×12 · kind 010 ×11", "kind 004 ×5 · other kinds ×10"} {
		if !strings.Contains(line, want) {
			t.Errorf("errors line %q lacks %q", line, want)
		}
	}
}
