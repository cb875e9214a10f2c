package termtext

import "testing"

func TestEllipsis(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"ÅÆØå", 3, "ÅÆ…"},
		{"ÅÆØ", 3, "ÅÆØ"},
		{"", 3, ""},
	} {
		if got := Ellipsis(c.in, c.n); got != c.want {
			t.Errorf("Ellipsis(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
