package findings

// bounded is a map that holds at most max entries: putting one more
// forgets the oldest put.
type bounded[V any] struct {
	m     map[string]V
	order []string // keys in the order put, a ring once full
	next  int      // where the next key goes in order, once full
	max   int
}

// newBounded returns an empty map of at most max entries.
func newBounded[V any](max int) bounded[V] {
	return bounded[V]{m: make(map[string]V), max: max}
}

// get returns the value under key.
func (b *bounded[V]) get(key string) (V, bool) {
	v, ok := b.m[key]
	return v, ok
}

// put sets the value under key and reports whether an older entry was
// forgotten to make room.
func (b *bounded[V]) put(key string, v V) (forgot bool) {
	if _, ok := b.m[key]; ok {
		b.m[key] = v
		return false
	}
	if len(b.order) < b.max {
		b.order = append(b.order, key)
	} else {
		if old := b.order[b.next]; old != "" {
			if _, held := b.m[old]; held {
				delete(b.m, old)
				forgot = true
			}
		}
		b.order[b.next] = key
		b.next = (b.next + 1) % b.max
	}
	b.m[key] = v
	return forgot
}

// take returns the value under key and forgets it.
func (b *bounded[V]) take(key string) (V, bool) {
	v, ok := b.m[key]
	if ok {
		delete(b.m, key)
	}
	return v, ok
}
