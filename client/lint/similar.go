package lint

import (
	"cmp"
	"fmt"
	"slices"
)

// similarTools is the Jaccard similarity of two tools' word sets at which
// they count as near duplicates: at 0.9 at most one word in ten differs
// between them, too little for a model to tell which one to call.
const similarTools = 0.9

// minSimilarWords is the smallest word set compared: below it one word
// more or less decides the match, and identical short texts are
// description-duplicate's.
const minSimilarWords = 5

// toolWords is a tool's word set: the words of its description, and the
// name and type of each top-level parameter.
func toolWords(e *entry) map[string]bool {
	set := map[string]bool{}
	d, _ := e.str("description")
	for _, w := range words(d) {
		set[w] = true
	}
	schema, _ := e.obj["inputSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		t := ""
		if obj, ok := p.(map[string]any); ok {
			t = fmt.Sprint(obj["type"])
		}
		set["\x00param "+name+" "+t] = true // cannot collide with a word
	}
	return set
}

// checkSimilarTools reports tools whose descriptions and parameters are
// near-identical. Sets are compared in order of size, and a pair whose
// sizes alone rule out the threshold is never compared, so a long
// listing of unlike tools costs little.
func checkSimilarTools(o *offer, r *report) {
	type tool struct {
		e   *entry
		set map[string]bool
	}
	var tools []tool
	for _, e := range o.entries[kindTool] {
		if e.obj == nil || e.name == "" {
			continue
		}
		if set := toolWords(e); len(set) >= minSimilarWords {
			tools = append(tools, tool{e, set})
		}
	}
	slices.SortStableFunc(tools, func(a, b tool) int { return cmp.Compare(len(a.set), len(b.set)) })
	for i, a := range tools {
		for _, b := range tools[i+1:] {
			if float64(len(a.set)) < similarTools*float64(len(b.set)) {
				break // |A∩B|/|A∪B| ≤ |A|/|B| < the threshold, and later sets are larger
			}
			if a.e.name == b.e.name {
				continue // name-duplicate
			}
			if j := jaccard(a.set, b.set); j >= similarTools {
				first, later := a.e, b.e
				if later.order < first.order {
					first, later = later, first
				}
				r.add("tool-near-duplicate", later, member(later.path, "description"),
					fmt.Sprintf("the tool's description and parameters are %.0f%% the same as those of %s", j*100, first.subject()), "")
			}
		}
	}
}

// jaccard is |a∩b| / |a∪b|.
func jaccard(a, b map[string]bool) float64 {
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}
