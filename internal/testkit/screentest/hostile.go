package screentest

import (
	"strings"
	"testing"
)

// Hostile is server text that would retitle the window, write the
// clipboard, clear the screen and reorder the line if it reached the
// terminal raw; HostileShown is how it must appear instead.
const (
	Hostile      = "x\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\u009b31m\u202e"
	HostileShown = `x\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\u009b31m\u202e`
)

// AssertSafeView fails when a drawn screen holds what only the server's
// text could have put there: a BEL, an OSC, a screen clear, a C1 control
// or a bidi override; and when the hostile text is not shown escaped.
func AssertSafeView(t testing.TB, what, view string) {
	t.Helper()
	for _, raw := range []string{"\x07", "\x1b]", "\x1b[2J", "\u009b", "\u202e"} {
		if i := strings.Index(view, raw); i >= 0 {
			t.Errorf("%s: raw %q at byte %d: %q", what, raw, i, view[max(i-60, 0):min(i+60, len(view))])
		}
	}
	if !strings.Contains(view, `\x1b]0;PWNED\x07`) {
		t.Errorf("%s: the hostile text is not shown escaped:\n%s", what, view)
	}
}
