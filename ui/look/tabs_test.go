package look

import "testing"

// Tabs go to the next stop of 8 columns, counted from the start of their
// line, wide characters counting two.
func TestExpandTabs(t *testing.T) {
	for in, want := range map[string]string{
		"a\tb":         "a       b",
		"name\tvalue":  "name    value",
		"12345678\tx":  "12345678        x",
		"x\n\ty":       "x\n        y",
		"日本\tz":        "日本    z",
		"no tabs here": "no tabs here",
	} {
		if got := ExpandTabs(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
