package capture

import (
	"errors"
	"testing"
)

// markLog records the stream notes it is given.
type markLog struct {
	marks []StreamState
	sizes []int64
}

func (m *markLog) Append(*Frame) uint64 { return 0 }
func (m *markLog) Note(e Event) {
	switch e := e.(type) {
	case StreamMarked:
		m.marks = append(m.marks, e.State)
	case StreamSized:
		m.sizes = append(m.sizes, e.Size)
	}
}

func TestTeeForwardsStreamMarks(t *testing.T) {
	store := NewStore(Config{})
	log := &markLog{}
	sink := Tee(SinkFunc(func(*Frame) uint64 { return 0 }), store, log)
	m, ok := sink.(Tap)
	if !ok {
		t.Fatal("a Tee of several sinks does not take notes")
	}
	key := StreamKey{Conn: "wt", ReqID: 7, Tag: 1}
	m.Note(StreamSized{Key: key, Size: 1234})
	boom := errors.New("boom")
	m.Note(StreamMarked{Key: key, State: StreamError, Err: boom})
	st, ok := store.Stream(key)
	if !ok || st.State != StreamError || !errors.Is(st.Err, boom) || st.Size != 1234 {
		t.Fatalf("store saw %+v (known %v), want state error, err boom, size 1234", st, ok)
	}
	if len(log.marks) != 1 || log.marks[0] != StreamError || len(log.sizes) != 1 || log.sizes[0] != 1234 {
		t.Fatalf("marker sink saw marks %v sizes %v", log.marks, log.sizes)
	}
}
