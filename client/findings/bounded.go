package findings

import "iter"

// bounded is a map that holds at most max entries: putting one more
// forgets the oldest put still held.
type bounded[K comparable, V any] struct {
	m     map[K]held[V]
	order []slot[K] // the puts in order, a ring once full
	next  int       // where the next put goes in order, once full
	puts  uint64    // puts so far: each put's mark
	max   int
}

// held is a value and the mark of the put that set it.
type held[V any] struct {
	v    V
	mark uint64
}

// slot is one put in order: its key and mark. A slot whose key was taken,
// or put again since, no longer names the entry held under that key.
type slot[K comparable] struct {
	key  K
	mark uint64
}

// newBounded returns an empty map of at most max entries.
func newBounded[K comparable, V any](max int) bounded[K, V] {
	return bounded[K, V]{m: make(map[K]held[V]), max: max}
}

// get returns the value under key.
func (b *bounded[K, V]) get(key K) (V, bool) {
	h, ok := b.m[key]
	return h.v, ok
}

// has reports whether key is held.
func (b *bounded[K, V]) has(key K) bool {
	_, ok := b.m[key]
	return ok
}

// values yields the values held, in no order.
func (b *bounded[K, V]) values() iter.Seq[V] {
	return func(yield func(V) bool) {
		for _, h := range b.m {
			if !yield(h.v) {
				return
			}
		}
	}
}

// len is how many entries are held.
func (b *bounded[K, V]) len() int { return len(b.m) }

// put sets the value under key and reports whether an older entry was
// forgotten to make room.
func (b *bounded[K, V]) put(key K, v V) (forgot bool) {
	if h, ok := b.m[key]; ok {
		b.m[key] = held[V]{v, h.mark}
		return false
	}
	b.puts++
	s := slot[K]{key, b.puts}
	if len(b.order) < b.max {
		b.order = append(b.order, s)
	} else {
		old := b.order[b.next]
		if h, ok := b.m[old.key]; ok && h.mark == old.mark {
			delete(b.m, old.key)
			forgot = true
		}
		b.order[b.next] = s
		b.next = (b.next + 1) % b.max
	}
	b.m[key] = held[V]{v, b.puts}
	return forgot
}

// take returns the value under key and forgets it.
func (b *bounded[K, V]) take(key K) (V, bool) {
	h, ok := b.m[key]
	if ok {
		delete(b.m, key)
	}
	return h.v, ok
}

// clear forgets every entry, and the memory that held them.
func (b *bounded[K, V]) clear() {
	b.m = make(map[K]held[V])
	b.order, b.next = nil, 0
}
