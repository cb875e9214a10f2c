package capture

import (
	"errors"
	"sync"
	"testing"
)

// noteLog records the notes it is given.
type noteLog struct {
	mu    sync.Mutex
	conns []string
	notes []Event
}

func (l *noteLog) Append(f *Frame) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.conns = append(l.conns, f.Conn)
	return uint64(len(l.conns))
}

func (l *noteLog) Note(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notes = append(l.notes, e)
}

// OnConn names the connection of every frame and every note with the
// suffix, the stream an SSE resume continues included.
func TestOnConnRenamesFramesAndNotes(t *testing.T) {
	log := &noteLog{}
	tap := OnConn(log, "#2")
	if seq := tap.Append(&Frame{Conn: "wt"}); seq != 1 || log.conns[0] != "wt#2" {
		t.Errorf("frame: seq %d, conns %v", seq, log.conns)
	}
	key := StreamKey{Conn: "wt", ReqID: 1, Tag: 2}
	boom := errors.New("boom")
	for _, e := range []Event{
		StreamMarked{Key: key, State: StreamError, Err: boom},
		StreamSized{Key: key, Size: 9},
		StreamLabelled{Key: key, Label: StreamLabel{Text: "x"}},
		SSEOpened{Conn: "h GET 4", Start: SSEStart{Kind: SSEResume, Of: "h POST 3"}},
		SSEOpened{Conn: "h GET 5", Start: SSEStart{Kind: SSEGet}},
		SSEEventSeen{Conn: "h GET 4", Seq: 3, Size: 9, LastID: "e"},
		SSEEnded{Conn: "h GET 4", State: SSEDone},
	} {
		tap.Note(e)
	}
	renamed := key
	renamed.Conn = "wt#2"
	want := []Event{
		StreamMarked{Key: renamed, State: StreamError, Err: boom},
		StreamSized{Key: renamed, Size: 9},
		StreamLabelled{Key: renamed, Label: StreamLabel{Text: "x"}},
		SSEOpened{Conn: "h GET 4#2", Start: SSEStart{Kind: SSEResume, Of: "h POST 3#2"}},
		SSEOpened{Conn: "h GET 5#2", Start: SSEStart{Kind: SSEGet}},
		SSEEventSeen{Conn: "h GET 4#2", Seq: 3, Size: 9, LastID: "e"},
		SSEEnded{Conn: "h GET 4#2", State: SSEDone},
	}
	if len(log.notes) != len(want) {
		t.Fatalf("notes %v", log.notes)
	}
	for i := range want {
		if log.notes[i] != want[i] {
			t.Errorf("note %d = %+v, want %+v", i, log.notes[i], want[i])
		}
	}
}

// unlockedLog counts frames and notes with no lock of its own, as a
// recording that relies on its caller's order.
type unlockedLog struct{ frames, notes int }

func (l *unlockedLog) Append(*Frame) uint64 { l.frames++; return 0 }
func (l *unlockedLog) Note(Event)           { l.notes++ }

// Serialized hands frames and notes of every kind on one at a time,
// whatever the goroutines reporting them (the race detector checks it); a
// Store's state is the same as fed directly.
func TestSerializedForwardsEverything(t *testing.T) {
	store := NewStore(Config{})
	log := &unlockedLog{}
	tap := Serialized(Tee(store, log).(Tap))
	key := StreamKey{Conn: "wt", ReqID: 7, Tag: 1}
	notes := []Event{
		StreamLabelled{Key: key, Label: StreamLabel{Text: "x"}},
		StreamSized{Key: key, Size: 5},
		SSEOpened{Conn: "c", Start: SSEStart{Kind: SSEGet}},
		SSEEventSeen{Conn: "c"},
		SSEEnded{Conn: "c", State: SSEDone},
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				tap.Append(&Frame{Dir: In, Conn: "wt", Chan: Channel{Kind: Control}, Raw: []byte("{}")})
				tap.Note(notes[(g+i)%len(notes)])
			}
		}()
	}
	wg.Wait()
	tap.Note(StreamMarked{Key: key, State: StreamDone})
	if store.Len() != 400 || log.frames != 400 || log.notes != 401 {
		t.Errorf("store %d frames, log %d frames %d notes", store.Len(), log.frames, log.notes)
	}
	if st, ok := store.Stream(key); !ok || st.State != StreamDone || st.Size != 5 {
		t.Errorf("stream %+v (known %v)", st, ok)
	}
}
