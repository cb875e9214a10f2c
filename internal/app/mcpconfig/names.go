package mcpconfig

import (
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/textdist"
)

// Closest returns the names among names that look like name: the same
// but for case, one holding the other, or at most two edits away; sorted,
// each once.
func Closest(name string, names []string) []string {
	lower := strings.ToLower(name)
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		l := strings.ToLower(n)
		if seen[n] || n == name {
			continue
		}
		if strings.Contains(l, lower) || strings.Contains(lower, l) || textdist.Distance(l, lower, 2) <= 2 {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
