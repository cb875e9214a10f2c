package mcpconfig

import (
	"reflect"
	"testing"
)

func TestClosest(t *testing.T) {
	names := []string{"github", "GitHub-enterprise", "filesystem", "fetch", "everything"}
	for name, want := range map[string][]string{
		"githb":  {"github"},
		"GITHUB": {"GitHub-enterprise", "github"},
		"fetc":   {"fetch"},
		"zzz":    nil,
		"files":  {"filesystem"},
	} {
		if got := Closest(name, names); !reflect.DeepEqual(got, want) {
			t.Errorf("Closest(%q) = %q, want %q", name, got, want)
		}
	}
}
