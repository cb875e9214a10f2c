package capture

// sseAges orders the records of an sseTable for forgetting without a walk
// of the table at each stream opened: every record in the order it opened,
// and the finished ones in a heap by that order. An entry names a record
// by its connection and its order; one whose record was forgotten since,
// or replaced by a stream opened again on its connection, is stale: it is
// skipped when met, and the stale entries are dropped once the entries
// outnumber the records twice, so memory stays bounded by the table's.
type sseAges struct {
	opened []sseAge // oldest first from head
	head   int
	ended  []sseAge // a min-heap on order
}

// sseAge is one entry of sseAges.
type sseAge struct {
	conn  string
	order uint64
}

// live reports whether e still names a record of recs.
func (e sseAge) live(recs map[string]*sseRecord) bool {
	r, ok := recs[e.conn]
	return ok && r.order == e.order
}

// opens enters a record opened on conn with order.
func (a *sseAges) opens(conn string, order uint64, recs map[string]*sseRecord) {
	if a.head > len(a.opened)/2 {
		a.opened = append(a.opened[:0], a.opened[a.head:]...)
		a.head = 0
	}
	if len(a.opened)-a.head > 2*len(recs)+2 {
		a.opened = liveAges(a.opened[a.head:], recs)
		a.head = 0
	}
	a.opened = append(a.opened, sseAge{conn: conn, order: order})
}

// ends enters the record of conn with order as finished.
func (a *sseAges) ends(conn string, order uint64, recs map[string]*sseRecord) {
	if len(a.ended) > 2*len(recs)+2 {
		a.ended = liveAges(a.ended, recs)
		for i := len(a.ended)/2 - 1; i >= 0; i-- {
			a.down(i)
		}
	}
	a.ended = append(a.ended, sseAge{conn: conn, order: order})
	a.up(len(a.ended) - 1)
}

// oldest returns the connection of the record to forget: the oldest
// finished one, or the oldest of all when none is finished. It takes it
// (and the stale entries before it) out of the order.
func (a *sseAges) oldest(recs map[string]*sseRecord) (string, bool) {
	for len(a.ended) > 0 {
		e := a.ended[0]
		last := len(a.ended) - 1
		a.ended[0] = a.ended[last]
		a.ended = a.ended[:last]
		a.down(0)
		if e.live(recs) {
			return e.conn, true
		}
	}
	for a.head < len(a.opened) {
		e := a.opened[a.head]
		a.head++
		if e.live(recs) {
			return e.conn, true
		}
	}
	return "", false
}

// liveAges keeps the entries of es that still name a record, in order.
func liveAges(es []sseAge, recs map[string]*sseRecord) []sseAge {
	kept := es[:0]
	for _, e := range es {
		if e.live(recs) {
			kept = append(kept, e)
		}
	}
	clear(es[len(kept):])
	return kept
}

// up moves the entry at i of the heap towards its root.
func (a *sseAges) up(i int) {
	h := a.ended
	for i > 0 {
		p := (i - 1) / 2
		if h[p].order <= h[i].order {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

// down moves the entry at i of the heap towards its leaves.
func (a *sseAges) down(i int) {
	h := a.ended
	for {
		least := i
		if l := 2*i + 1; l < len(h) && h[l].order < h[least].order {
			least = l
		}
		if r := 2*i + 2; r < len(h) && h[r].order < h[least].order {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
