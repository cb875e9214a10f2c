package plural

import (
	"math"
	"testing"
)

func TestCount(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{{0, "0 matches"}, {1, "1 match"}, {2, "2 matches"}, {-1, "-1 matches"}}
	for _, c := range cases {
		if got := Count(c.n, "match", "matches"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Count(uint64(1), "frame", "frames"); got != "1 frame" {
		t.Errorf("Count(uint64 1) = %q", got)
	}
	if got := Word(int64(5), "tool", "tools"); got != "tools" {
		t.Errorf("Word(5) = %q", got)
	}
}

// An empty plural is formed by English rules, as the library does.
func TestCountFormsPlural(t *testing.T) {
	if got := Count(2, "match", ""); got != "2 matches" {
		t.Errorf("Count(2, match, \"\") = %q, want 2 matches", got)
	}
	if got := Word(uint32(3), "entry", ""); got != "entries" {
		t.Errorf("Word(3, entry, \"\") = %q, want entries", got)
	}
	if got := Count(uint64(math.MaxUint64), "frame", "frames"); got != "18446744073709551615 frames" {
		t.Errorf("Count(MaxUint64) = %q", got)
	}
}

// A count is written plain, never grouped with commas.
func TestCountPlainNumber(t *testing.T) {
	if got := Count(814183, "annotation", "annotations"); got != "814183 annotations" {
		t.Errorf("Count(814183) = %q", got)
	}
}
