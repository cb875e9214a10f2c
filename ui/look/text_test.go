package look

import "testing"

// TestCellRightIsSafe checks a short text a server controls (a string
// request id) is made safe before it is aligned: a line break or an
// escape sequence never reaches the terminal.
func TestCellRightIsSafe(t *testing.T) {
	cases := map[string]string{"7": "     7", "\n": "      ", "\x1b[2J": `\x1b[…`, "abcdefgh": "abcde…"}
	for in, want := range cases {
		if got := CellRight(in, 6); got != want {
			t.Errorf("CellRight(%q, 6) = %q, want %q", in, got, want)
		}
	}
}
