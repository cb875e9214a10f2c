package jsondiff

// matcher follows a list of patterns down a document, one segment at a
// time, like a small automaton: the state at a path says which steps of
// which patterns the path so far leaves open. Each step costs time in
// proportion to the patterns' lengths, however deep the path.
type matcher struct {
	pats []Pattern
}

// cursor is where one pattern stands: the index of its next step.
type cursor struct {
	pat, step int32
}

// state is the set of cursors the path so far leaves open.
type state struct {
	at []cursor
}

// noState is the state in which no pattern can match any more.
var noState = &state{}

// start returns the state at the root.
func (m *matcher) start() *state {
	if len(m.pats) == 0 {
		return noState
	}
	s := &state{at: make([]cursor, len(m.pats))}
	for i := range m.pats {
		s.at[i] = cursor{pat: int32(i)}
	}
	return s
}

// next returns the state one segment further down.
func (m *matcher) next(s *state, seg Segment) *state {
	if len(s.at) == 0 {
		return noState
	}
	var out []cursor
	for _, c := range s.at {
		steps := m.pats[c.pat].steps
		if int(c.step) == len(steps) {
			continue // the pattern ended at the parent
		}
		st := steps[c.step]
		if st.deep {
			out = addCursor(out, c) // the step may match further down
		}
		if st.matches(seg) {
			out = addCursor(out, cursor{pat: c.pat, step: c.step + 1})
		}
	}
	if len(out) == 0 {
		return noState
	}
	return &state{at: out}
}

// addCursor adds c to set unless it is there.
func addCursor(set []cursor, c cursor) []cursor {
	for _, have := range set {
		if have == c {
			return set
		}
	}
	return append(set, c)
}

// matched returns the first pattern among pats[from:to] that ends at this
// state's path, or -1.
func (m *matcher) matched(s *state, from, to int) int {
	best := -1
	for _, c := range s.at {
		p := int(c.pat)
		if p >= from && p < to && int(c.step) == len(m.pats[p].steps) && (best < 0 || p < best) {
			best = p
		}
	}
	return best
}
