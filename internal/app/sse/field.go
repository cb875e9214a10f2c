package sse

import (
	"bytes"
	"math"
)

// parseRetry reads a retry value: only ASCII digits count; a value past
// the int64 range saturates.
func parseRetry(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + d
		}
	}
	return n, true
}

// finder finds one byte in the buffered stream, remembering how far it
// looked so no byte is scanned twice for it.
type finder struct {
	at    int64 // stream offset of the byte found, or where the search stopped
	found bool
}

// index returns the index in c (which starts at stream offset base) of the
// first b at or after i, or -1.
func (f *finder) index(c []byte, base int64, i int, b byte) int {
	from := i
	if f.at >= base+int64(i) {
		if f.found && f.at < base+int64(len(c)) {
			return int(f.at - base)
		}
		from = min(int(f.at-base), len(c))
	}
	j := bytes.IndexByte(c[from:], b)
	if j < 0 {
		f.at, f.found = base+int64(len(c)), false
		return -1
	}
	f.at, f.found = base+int64(from+j), true
	return from + j
}
