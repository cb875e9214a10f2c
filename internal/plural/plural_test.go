package plural

import "testing"

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
