package origin

import "testing"

// No Origin passes; a listed one passes whatever its case or trailing
// slash; "*" passes any; the rest is refused.
func TestAllowed(t *testing.T) {
	list := []string{"https://example.com/"}
	for _, c := range []struct {
		list   []string
		origin string
		want   bool
	}{
		{nil, "", true}, {nil, "https://evil.test", false}, {list, "HTTPS://EXAMPLE.COM", true},
		{list, "https://example.com.evil.test", false}, {[]string{"*"}, "null", true},
	} {
		if got := Allowed(c.list, c.origin); got != c.want {
			t.Errorf("Allowed(%q, %q) = %v", c.list, c.origin, got)
		}
	}
}
