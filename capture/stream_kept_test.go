package capture

import (
	"testing"
	"time"
)

// TestStreamKept: a stream that fits the head keeps every byte; a longer
// one keeps its head and tail and says it was sampled.
func TestStreamKept(t *testing.T) {
	s := NewStore(Config{StreamHead: 100, StreamTail: 50})
	short, long := StreamKey{Conn: "c", ReqID: 1, Tag: 1}, StreamKey{Conn: "c", ReqID: 2, Tag: 1}
	at := time.Unix(0, 0)
	s.Append(chunk(short, true, 0, make([]byte, 80), at))
	for i := range 10 {
		s.Append(chunk(long, i == 0, i, make([]byte, 40), at))
	}
	for _, c := range []struct {
		key     StreamKey
		kept    int64
		sampled bool
	}{{short, 80, false}, {long, 150, true}} {
		st, _ := s.Stream(c.key)
		if st.Kept() != c.kept || st.Sampled() != c.sampled {
			t.Errorf("%v: kept %d of %d, sampled %v; want %d, %v", c.key, st.Kept(), st.Bytes, st.Sampled(), c.kept, c.sampled)
		}
	}
}
