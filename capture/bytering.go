package capture

// headBuffer keeps the first limit bytes written to it.
type headBuffer struct {
	buf   []byte
	limit int
}

// write appends what still fits under the limit.
func (h *headBuffer) write(p []byte) {
	room := h.limit - len(h.buf)
	if room <= 0 {
		return
	}
	if len(p) > room {
		p = p[:room]
	}
	if cap(h.buf)-len(h.buf) < len(p) {
		grown := make([]byte, len(h.buf), min(h.limit, max(2*cap(h.buf), len(h.buf)+len(p))))
		copy(grown, h.buf)
		h.buf = grown
	}
	h.buf = append(h.buf, p...)
}

// bytes returns a copy of the kept bytes.
func (h *headBuffer) bytes() []byte { return append([]byte(nil), h.buf...) }

// TailRing keeps the last limit bytes written to it. It grows lazily up to
// limit, then wraps: start is the oldest byte, which the next write replaces.
type TailRing struct {
	buf   []byte
	start int
	limit int
}

// Write keeps p as the newest bytes; it never fails.
func (t *TailRing) Write(p []byte) (int, error) {
	n := len(p)
	if t.limit <= 0 || len(p) == 0 {
		return n, nil
	}
	if len(p) >= t.limit {
		if cap(t.buf) < t.limit {
			t.buf = make([]byte, t.limit)
		}
		t.buf = t.buf[:t.limit]
		copy(t.buf, p[len(p)-t.limit:])
		t.start = 0
		return n, nil
	}
	if len(t.buf) < t.limit {
		h := headBuffer{buf: t.buf, limit: t.limit}
		fill := min(t.limit-len(t.buf), len(p))
		h.write(p[:fill])
		t.buf, p = h.buf, p[fill:]
	}
	for len(p) > 0 {
		k := copy(t.buf[t.start:], p)
		p = p[k:]
		t.start = (t.start + k) % t.limit
	}
	return n, nil
}

// Bytes returns a copy of the kept bytes, oldest first.
func (t *TailRing) Bytes() []byte {
	out := make([]byte, 0, len(t.buf))
	out = append(out, t.buf[t.start:]...)
	return append(out, t.buf[:t.start]...)
}

// len is how many bytes are kept.
func (t *TailRing) len() int { return len(t.buf) }

// NewTailRing returns a ring that keeps the last limit bytes.
func NewTailRing(limit int) *TailRing { return &TailRing{limit: limit} }
