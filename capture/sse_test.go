package capture

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// sseByConn returns the SSE streams of st by connection.
func sseByConn(st *Store) map[string]SSEStats {
	out := map[string]SSEStats{}
	for _, s := range st.SSEStreams() {
		out[s.Conn] = s
	}
	return out
}

// TestSSELifecycle: a stream is open from its start, counts its events,
// their bytes and the last event id, keeps the Seq of its first held
// event, and ends once in the state the transport gives.
func TestSSELifecycle(t *testing.T) {
	st := NewStore(Config{})
	st.OpenSSE("h POST 1", SSEStart{Kind: SSEAnswer, Method: "tools/call", ReqID: "3"})
	st.SSEEvent("h POST 1", 0, 10, "")
	st.SSEEvent("h POST 1", 7, 25, "e1")
	st.SSEEvent("h POST 1", 9, 5, "e2")
	s := sseByConn(st)["h POST 1"]
	if s.State != SSEOpen || s.Events != 3 || s.Bytes != 40 || s.LastID != "e2" || s.FirstSeq != 7 {
		t.Fatalf("open stream = %+v", s)
	}
	if s.Method != "tools/call" || s.ReqID != "3" || s.Kind != SSEAnswer || s.Opened.IsZero() || s.Last.IsZero() {
		t.Errorf("open stream lost its start: %+v", s)
	}
	st.EndSSE("h POST 1", SSEBroken, "unexpected EOF")
	st.EndSSE("h POST 1", SSEDone, "")       // a second end is ignored
	st.SSEEvent("h POST 1", 11, 100, "late") // so is an event after the end
	s = sseByConn(st)["h POST 1"]
	if s.State != SSEBroken || s.Why != "unexpected EOF" || s.Events != 3 || s.LastID != "e2" || s.Ended.IsZero() {
		t.Errorf("ended stream = %+v", s)
	}
	st.SSEEvent("h GET 9", 1, 1, "x") // never opened
	st.EndSSE("h GET 9", SSEDone, "")
	if len(st.SSEStreams()) != 1 {
		t.Errorf("an unknown connection made a record: %+v", st.SSEStreams())
	}
	for state, want := range map[SSEState]string{SSEOpen: "open", SSEDone: "done", SSEBroken: "broken", SSECancelled: "cancelled", 9: "unknown"} {
		if state.String() != want {
			t.Errorf("%d.String() = %q", state, state.String())
		}
	}
}

// TestSSEBounded: past MaxSSEStreams the oldest finished stream is
// forgotten first, open ones only when none is finished; server text is
// clipped.
func TestSSEBounded(t *testing.T) {
	st := NewStore(Config{MaxSSEStreams: 3})
	st.OpenSSE("a", SSEStart{Kind: SSEGet})
	st.OpenSSE("b", SSEStart{Kind: SSEAnswer})
	st.OpenSSE("c", SSEStart{Kind: SSEAnswer})
	st.EndSSE("c", SSEDone, "")
	st.OpenSSE("d", SSEStart{Kind: SSEAnswer}) // forgets c, finished, though a is older
	if got := keys(st); got != "a b d" {
		t.Fatalf("after d: %s", got)
	}
	st.OpenSSE("e", SSEStart{Kind: SSEAnswer}) // none finished: forgets the oldest, a
	if got := keys(st); got != "b d e" {
		t.Fatalf("after e: %s", got)
	}
	long := strings.Repeat("é", 1000)
	st.SSEEvent("e", 1, 1, long)
	st.EndSSE("e", SSECancelled, long)
	s := sseByConn(st)["e"]
	if len(s.LastID) > maxSSEText || len(s.Why) > maxSSEText || !strings.HasPrefix(long, s.LastID) || s.LastID == "" {
		t.Errorf("server text not clipped on a rune: id %d bytes, why %d bytes", len(s.LastID), len(s.Why))
	}
	if NewStore(Config{}).Config().MaxSSEStreams != DefaultMaxSSEStreams {
		t.Error("MaxSSEStreams has no default")
	}
}

// keys lists the connections of the remembered SSE streams, oldest first.
func keys(st *Store) string {
	var out []string
	for _, s := range st.SSEStreams() {
		out = append(out, s.Conn)
	}
	return strings.Join(out, " ")
}

// TestSSEConcurrent: streams opened, fed, ended and listed from many
// goroutines (go test -race) stay within the bound and count every event.
func TestSSEConcurrent(t *testing.T) {
	st := NewStore(Config{MaxSSEStreams: 16})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 50 {
				conn := fmt.Sprintf("h POST %d-%d", g, i)
				st.OpenSSE(conn, SSEStart{Kind: SSEAnswer})
				for j := range 4 {
					st.SSEEvent(conn, uint64(j+1), 10, fmt.Sprint(j))
				}
				st.EndSSE(conn, SSEDone, "")
			}
		}()
		go func() {
			defer wg.Done()
			for range 50 {
				if n := len(st.SSEStreams()); n > 16 {
					t.Errorf("%d streams remembered, bound 16", n)
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range st.SSEStreams() {
		if s.Events != 4 || s.Bytes != 40 || s.State != SSEDone {
			t.Errorf("stream %+v", s)
		}
	}
}

// TestTeeForwardsSSE: a Tee hands the lifecycle to every sink of it that
// follows SSE streams.
func TestTeeForwardsSSE(t *testing.T) {
	a, b := NewStore(Config{}), NewStore(Config{})
	k := Tee(a, Discard, b)
	Note(k, SSEOpened{Conn: "c", Start: SSEStart{Kind: SSELegacy}})
	Note(k, SSEEventSeen{Conn: "c", Seq: 1, Size: 3, LastID: "i"})
	Note(k, SSEEnded{Conn: "c", State: SSECancelled, Why: "closed"})
	for _, st := range []*Store{a, b} {
		if s := sseByConn(st)["c"]; s.Events != 1 || s.State != SSECancelled || s.Kind != SSELegacy {
			t.Errorf("forwarded stream = %+v", s)
		}
	}
}
