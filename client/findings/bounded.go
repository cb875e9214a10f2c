package findings

// bounded is a map that holds at most max entries: putting one more
// forgets the oldest put.
type bounded[K comparable, V any] struct {
	m     map[K]V
	order []K // keys in the order put, a ring once full
	next  int // where the next key goes in order, once full
	max   int
}

// newBounded returns an empty map of at most max entries.
func newBounded[K comparable, V any](max int) bounded[K, V] {
	return bounded[K, V]{m: make(map[K]V), max: max}
}

// get returns the value under key.
func (b *bounded[K, V]) get(key K) (V, bool) {
	v, ok := b.m[key]
	return v, ok
}

// has reports whether key is held.
func (b *bounded[K, V]) has(key K) bool {
	_, ok := b.m[key]
	return ok
}

// len is how many entries are held.
func (b *bounded[K, V]) len() int { return len(b.m) }

// put sets the value under key and reports whether an older entry was
// forgotten to make room.
func (b *bounded[K, V]) put(key K, v V) (forgot bool) {
	if _, ok := b.m[key]; ok {
		b.m[key] = v
		return false
	}
	if len(b.order) < b.max {
		b.order = append(b.order, key)
	} else {
		if _, held := b.m[b.order[b.next]]; held {
			delete(b.m, b.order[b.next])
			forgot = true
		}
		b.order[b.next] = key
		b.next = (b.next + 1) % b.max
	}
	b.m[key] = v
	return forgot
}

// take returns the value under key and forgets it.
func (b *bounded[K, V]) take(key K) (V, bool) {
	v, ok := b.m[key]
	if ok {
		delete(b.m, key)
	}
	return v, ok
}

// clear forgets every entry, and the memory that held them.
func (b *bounded[K, V]) clear() {
	b.m = make(map[K]V)
	b.order, b.next = nil, 0
}
