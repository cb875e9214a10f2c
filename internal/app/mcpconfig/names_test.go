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
	if d := editDistance("kitten", "sitting", 5); d != 3 {
		t.Errorf("editDistance = %d, want 3", d)
	}
}
