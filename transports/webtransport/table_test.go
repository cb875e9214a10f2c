package webtransport

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestStreamTableCorrelation(t *testing.T) {
	s := newStreamTable()
	s.sent(1)
	if r := s.open(1, 1); r != "" {
		t.Fatalf("stream of a request in flight refused: %s", r)
	}
	if r := s.open(1, 1); !strings.Contains(r, "already has a stream with this tag") {
		t.Fatalf("duplicate stream: %q", r)
	}
	if r := s.open(2, 1); !strings.Contains(r, "not in flight") {
		t.Fatalf("unknown request: %q", r)
	}
	s.answered(1, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}, {Type: ContentStreamRef, StreamTag: 2}})
	if r := s.open(1, 3); !strings.Contains(r, "refers to no stream with this tag") {
		t.Fatalf("unreferenced stream after the answer: %q", r)
	}
	if r := s.open(1, 2); r != "" {
		t.Fatalf("referenced stream after the answer refused: %s", r)
	}
	if s.openStreams() != 2 {
		t.Fatalf("open %d", s.openStreams())
	}
	if err := s.ended(1, 1, 10, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.await(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("await with tag 2 open: %v", err)
	}
	boom := errors.New("boom")
	if err := s.ended(1, 2, 5, boom); !errors.Is(err, boom) {
		t.Fatalf("ended with boom: %v", err)
	}
	err := s.await(context.Background(), 1)
	var failed *StreamFailedError
	if !errors.As(err, &failed) || failed.StreamTag != 2 || failed.Bytes != 5 {
		t.Fatalf("await: %v", err)
	}
}

func TestStreamTableRemoteErrorBeforeArrival(t *testing.T) {
	s := newStreamTable()
	s.sent(7)
	s.answered(7, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}})
	if err := s.remoteError(StreamErrorParams{RequestID: 7, StreamTag: 1, Error: "no disk"}); err == nil {
		t.Fatal("a $/streamError for a stream that never arrived gave nothing to mark")
	}
	if err := s.await(context.Background(), 7); err == nil || !strings.Contains(err.Error(), `"no disk"`) {
		t.Fatalf("await: %v", err)
	}
	// The stream may still arrive (opened, then reset): it is accepted.
	if r := s.open(7, 1); r != "" {
		t.Fatalf("late stream refused: %s", r)
	}
	if err := s.ended(7, 1, 0, errors.New("reset")); err == nil || !strings.Contains(err.Error(), "no disk") {
		t.Fatalf("ended: %v", err)
	}
}

func TestStreamTableForgetsSettledRequestsOnly(t *testing.T) {
	s := newStreamTable()
	s.sent(0)
	s.open(0, 1) // stays open throughout
	for id := uint32(1); id <= 3*maxTrackedRequests; id++ {
		s.sent(id)
		s.answered(id, nil)
	}
	s.mu.Lock()
	n, kept := len(s.reqs), s.reqs[0] != nil
	s.mu.Unlock()
	if n > maxTrackedRequests+1 || !kept {
		t.Fatalf("%d requests tracked (cap %d), the one with an open stream kept: %v", n, maxTrackedRequests, kept)
	}
	if err := s.ended(0, 1, 1, nil); err != nil || s.openStreams() != 0 {
		t.Fatalf("ending the long stream: %v, open %d", err, s.openStreams())
	}
}

func TestStreamTableStaysBoundedWhenStreamsNeverCome(t *testing.T) {
	s := newStreamTable()
	for id := uint32(1); id <= 3*maxTrackedRequests; id++ {
		s.sent(id)
		s.answered(id, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}}) // never sent
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.mu.Unlock()
	if n > maxTrackedRequests {
		t.Fatalf("%d requests tracked, over the cap of %d", n, maxTrackedRequests)
	}
}
