package oauth

import (
	"slices"
	"testing"
)

// TestBrowserCommand: a $BROWSER entry takes the URL where "%s" stands,
// else last, as one argument whatever it holds.
func TestBrowserCommand(t *testing.T) {
	u := "http://127.0.0.1:9/authorize?a=1&b=%s x"
	for _, tc := range []struct {
		entry string
		want  []string
	}{
		{"firefox", []string{"firefox", u}},
		{"chromium --new-window", []string{"chromium", "--new-window", u}},
		{"open -a Safari %s", []string{"open", "-a", "Safari", u}},
		{"w3m '%s'", []string{"w3m", "'" + u + "'"}},
	} {
		if got := command(tc.entry, u); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.entry, got, tc.want)
		}
	}
}
