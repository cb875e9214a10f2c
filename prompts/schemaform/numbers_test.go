package schemaform

import (
	"regexp"
	"testing"
)

// The grammars the number checks implement, as regular expressions.
var (
	jsonNumberGrammar = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	intDigitsGrammar  = regexp.MustCompile(`^[+-]?[0-9]+$`)
)

// FuzzNumberChecks: IsJSONNumber and isIntDigits accept exactly what the
// JSON number grammar and "sign and digits" accept.
func FuzzNumberChecks(f *testing.F) {
	for _, s := range []string{"0", "-0", "01", "1.", ".5", "1e5", "1E+05", "-1.5e-3", "+1", " 1", "1 ", "-", "", "1e", "0x1", "12a", "١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsJSONNumber(s), jsonNumberGrammar.MatchString(s); got != want {
			t.Errorf("IsJSONNumber(%q) = %v, want %v", s, got, want)
		}
		if got, want := isIntDigits(s), intDigitsGrammar.MatchString(s); got != want {
			t.Errorf("isIntDigits(%q) = %v, want %v", s, got, want)
		}
	})
}
