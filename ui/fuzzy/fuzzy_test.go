package fuzzy

import "testing"

// TestFuzzyScore ranks an exact name over a prefix, a prefix over a
// substring, and a substring over scattered letters.
func TestFuzzyScore(t *testing.T) {
	ranked := []string{"echo", "echo-twice", "get-echo", "a-long-prefix-echo", "each-cat-host-order"}
	prev := 1 << 30
	for _, text := range ranked {
		score, ok := Score("ECHO", text)
		if !ok || score >= prev {
			t.Errorf("%q scores %d (match %v), want a match below %d", text, score, ok, prev)
		}
		prev = score
	}
	for _, text := range []string{"ohce", "ech", ""} {
		if _, ok := Score("echo", text); ok {
			t.Errorf("echo matches %q", text)
		}
	}
	if score, ok := Score("", "anything"); !ok || score != 0 {
		t.Errorf("an empty pattern: %d %v", score, ok)
	}
}
