package bench

import "cmp"

// otherKinds is the kind under which the errors of every kind past the
// maxKinds most frequent are counted together.
const otherKinds = "other kinds"

// kind is one kind of error of a run and how often it came.
type kind struct {
	text string
	n    int
}

// before orders kinds the most frequent first, then by text.
func before(a, b kind) bool {
	return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.text, b.text)) < 0
}

// topKinds is the maxKinds most frequent kinds of errs, in order, and
// the count of all the others (an otherKinds entry of errs among them).
// It reads errs once and keeps no more than maxKinds+1 kinds.
func topKinds(errs map[string]int) (top []kind, other int) {
	for text, n := range errs {
		if text == otherKinds {
			other += n
			continue
		}
		top = append(top, kind{text, n})
		for i := len(top) - 1; i > 0 && before(top[i], top[i-1]); i-- {
			top[i], top[i-1] = top[i-1], top[i]
		}
		if len(top) > maxKinds {
			other += top[maxKinds].n
			top = top[:maxKinds]
		}
	}
	return top, other
}

// capKinds is a copy of errs with at most maxKinds kinds, the most
// frequent, and the rest counted under otherKinds: what the screen keeps
// of an engine's errors however many kinds they have.
func capKinds(errs map[string]int) map[string]int {
	if len(errs) == 0 {
		return nil
	}
	top, other := topKinds(errs)
	capped := make(map[string]int, len(top)+1)
	for _, k := range top {
		capped[k.text] = k.n
	}
	if other > 0 {
		capped[otherKinds] = other
	}
	return capped
}
