package mcpconfig

import (
	"sort"
	"strings"
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
		if strings.Contains(l, lower) || strings.Contains(lower, l) || editDistance(l, lower, 2) <= 2 {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// editDistance is the Levenshtein distance of a and b in runes, or max+1
// once it is known to exceed max (long names cost no more than that).
func editDistance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
