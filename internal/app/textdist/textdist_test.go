package textdist

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b      string
		max, want int
	}{
		{"tools/call", "tools/call", 2, 0},
		{"tool/call", "tools/call", 2, 1},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 2, 3},
		{"", "abcdef", 2, 3},
		{"héllo", "hello", 2, 1},
	} {
		if got := Distance(c.a, c.b, c.max); got != c.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
	}
}
