package proxy

import (
	"fmt"
	"strings"
)

// maxName is the longest session name: it names files.
const maxName = 64

// CheckName says what is wrong with a session name, or nil: it names a
// recording and a socket, so it is letters, digits, '-', '_' and '.',
// not starting with '.'.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("a session name is not empty")
	case len(name) > maxName:
		return fmt.Errorf("%q is longer than %d bytes", name, maxName)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%q starts with a dot", name)
	}
	for _, r := range name {
		if !nameRune(r) {
			return fmt.Errorf("%q holds %q; a session name is letters, digits, '-', '_' and '.'", name, r)
		}
	}
	return nil
}

// SafeName turns s into a valid session name: other characters become
// '-', and it is cut to the longest name.
func SafeName(s string) string {
	b := []rune(strings.TrimLeft(s, "."))
	for i, r := range b {
		if !nameRune(r) {
			b[i] = '-'
		}
	}
	out := string(b)
	if len(out) > maxName {
		out = out[:maxName]
	}
	if out == "" {
		return "server"
	}
	return out
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
}
