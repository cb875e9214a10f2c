package lint

import (
	"cmp"
	"fmt"
	"math"
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

// wordSet is a tool's words as token numbers, rarest first.
type wordSet struct {
	e      *entry
	tokens []int
}

// maxPostings is the most tools one word's index entry lists. A word in
// more tools' prefixes than that is too common to tell tools apart (in
// a listing of thousands built from a small vocabulary, every word is),
// and comparing each new tool with every tool that holds it would make
// the check quadratic. Past it the word is no longer indexed.
const maxPostings = 64

// maxSteps bounds the work of one check, counted in the tokens its
// comparisons read (a comparison of sets a and b reads |a|+|b|): past it
// the check stops and says so.
const maxSteps = 1 << 26

// similarity is the state of one near-duplicate search.
type similarity struct {
	index    map[int][]int // token → sets whose prefix holds it
	stamp    []int         // stamp[j] == i+1: set j was compared with set i
	compared int           // comparisons made
	steps    int           // tokens those comparisons read
	partial  bool          // a word went unindexed or the budget ran out
}

// checkSimilarTools reports tools whose descriptions and parameters are
// near-identical, each at most once. It uses prefix filtering (Chaudhuri et al., "A
// primitive operator for similarity joins", 2006): with every set sorted
// rarest token first, two sets alike at the threshold share a token
// among the first few of each, so only the pairs an inverted index of
// those prefixes names are compared. A tool found alike is left out of
// the index (the tool it matched stands for it), so even a listing of
// many copies costs about linear time; a word is indexed for at most
// maxPostings tools and the check reads at most maxSteps tokens, so a
// listing of many distinct tools of common words costs linear time too.
// When either bound left pairs uncompared, one info finding says so.
func checkSimilarTools(o *offer, r *report) {
	sets := tokenSets(o)
	s := findSimilar(sets, r)
	if s.partial {
		whole := toolsListing()
		r.add("tool-near-duplicate-partial", whole, whole.path, fmt.Sprintf("the listing's %d tools are too many, or share too many words, for every pair to be compared; mcpscope compared %d pairs and may have missed near duplicates", len(sets), s.compared), "")
	}
}

// findSimilar reports the near duplicates among sets within the bounds.
func findSimilar(sets []wordSet, r *report) *similarity {
	s := &similarity{index: map[int][]int{}, stamp: make([]int, len(sets))}
	for i, set := range sets {
		prefix := set.tokens[:prefixLen(len(set.tokens))]
		if s.matchesIndexed(sets, i, prefix, r) {
			continue // one finding a tool; its twin stands for it in the index
		}
		if s.steps >= maxSteps {
			s.partial = true
			break
		}
		for _, tok := range prefix {
			if len(s.index[tok]) >= maxPostings {
				s.partial = true
				continue
			}
			s.index[tok] = append(s.index[tok], i)
		}
	}
	return s
}

// matchesIndexed compares set i with the indexed sets that share a
// prefix token, and reports whether one matched.
func (s *similarity) matchesIndexed(sets []wordSet, i int, prefix []int, r *report) bool {
	for _, tok := range prefix {
		for _, j := range s.index[tok] {
			if s.stamp[j] == i+1 {
				continue
			}
			if s.steps >= maxSteps {
				return false
			}
			s.stamp[j] = i + 1
			s.compared++
			s.steps += len(sets[i].tokens) + len(sets[j].tokens)
			if reportSimilar(r, sets[j], sets[i]) {
				return true
			}
		}
	}
	return false
}

// prefixLen is how many of a set's rarest tokens another set alike at
// the threshold must share one of: |A| − ⌈t·|A|⌉ + 1.
func prefixLen(n int) int {
	return n - int(math.Ceil(similarTools*float64(n)-1e-9)) + 1
}

// tokenSets numbers every word and sorts each tool's set rarest first.
func tokenSets(o *offer) []wordSet {
	var words []map[string]bool
	var entries []*entry
	freq := map[string]int{}
	for _, e := range o.entries[kindTool] {
		if e.obj == nil || e.name == "" {
			continue
		}
		if set := toolWords(e); len(set) >= minSimilarWords {
			words = append(words, set)
			entries = append(entries, e)
			for w := range set {
				freq[w]++
			}
		}
	}
	vocab := make([]string, 0, len(freq))
	for w := range freq {
		vocab = append(vocab, w)
	}
	slices.SortFunc(vocab, func(a, b string) int { return cmp.Or(cmp.Compare(freq[a], freq[b]), cmp.Compare(a, b)) })
	id := make(map[string]int, len(vocab))
	for i, w := range vocab {
		id[w] = i
	}
	sets := make([]wordSet, len(words))
	for i, set := range words {
		toks := make([]int, 0, len(set))
		for w := range set {
			toks = append(toks, id[w])
		}
		slices.Sort(toks)
		sets[i] = wordSet{entries[i], toks}
	}
	return sets
}

// reportSimilar reports b as a near duplicate of a when their sets are
// alike at the threshold, and says whether it did; the later-listed tool
// carries the finding.
func reportSimilar(r *report, a, b wordSet) bool {
	if a.e.name == b.e.name {
		return false // name-duplicate
	}
	j := jaccard(a.tokens, b.tokens)
	if j < similarTools {
		return false
	}
	first, later := a.e, b.e
	if later.order < first.order {
		first, later = later, first
	}
	r.add("tool-near-duplicate", later, member(later.path, "description"),
		fmt.Sprintf("the tool's description and parameters are %.0f%% the same as those of %s", j*100, first.subject()), "")
	return true
}

// jaccard is |a∩b| / |a∪b| of two sorted token lists.
func jaccard(a, b []int) float64 {
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}
