package capture

import (
	"strings"
	"testing"
	"time"
)

// A stream's label keeps its words, its own id and its opener, each cut to
// 256 bytes; a stream whose chunks went both ways is duplex, one whose
// chunks went one way (or none) is not.
func TestStreamLabelAndDuplex(t *testing.T) {
	s := NewStore(Config{})
	up, both := StreamKey{Conn: "gateway", Tag: 1}, StreamKey{Conn: "gateway", Tag: 2}
	s.LabelStream(up, StreamLabel{Text: "in · " + strings.Repeat("x", 300), ID: "550e8400-e29b-41d4-a716-446655440000", Opener: Out})
	s.LabelStream(both, StreamLabel{Text: "duplex", ID: strings.Repeat("9", 300), Opener: In})
	now := time.Unix(5000, 0)
	c := chunk(up, false, 1, []byte("up"), now)
	c.Dir = Out
	s.Append(c)
	s.Append(chunk(both, false, 1, []byte("down"), now))
	c = chunk(both, false, 1, []byte("back"), now)
	c.Dir = Out
	s.Append(c)
	st, _ := s.Stream(up)
	if st.Label.ID != "550e8400-e29b-41d4-a716-446655440000" || st.Label.Opener != Out || len(st.Label.Text) != maxStreamLabel || st.Duplex {
		t.Errorf("the upload: label %+v (%d bytes of words), duplex %v", st.Label, len(st.Label.Text), st.Duplex)
	}
	st, _ = s.Stream(both)
	if len(st.Label.ID) != maxStreamLabel || st.Label.Opener != In || !st.Duplex {
		t.Errorf("the echoed stream: label %+v, duplex %v", st.Label, st.Duplex)
	}
}
