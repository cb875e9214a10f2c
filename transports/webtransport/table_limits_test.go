package webtransport

import (
	"context"
	"strings"
	"testing"
)

// streamsOf returns how many streams the table holds for request id.
func streamsOf(s *streamTable, id uint32) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.reqs[id]; r != nil {
		return len(r.streams)
	}
	return 0
}

// A $/streamError flood for one answered request adds nothing to the table:
// tags never opened nor referred to, repeats, and unknown requests are
// ignored and counted.
func TestStreamTableIgnoresStreamErrorFlood(t *testing.T) {
	const flood = 200_000
	s := newStreamTable()
	s.sent(1)
	s.answered(1, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}})
	for tag := uint32(2); tag < flood+2; tag++ {
		if err := s.remoteError(StreamErrorParams{RequestID: 1, StreamTag: tag, Error: "flood"}); err != nil {
			t.Fatalf("tag %d never opened nor referred to gave %v to mark", tag, err)
		}
	}
	if n := streamsOf(s, 1); n != 1 {
		t.Fatalf("%d streams tracked for the answered request, want the 1 referred to", n)
	}
	if s.remoteError(StreamErrorParams{RequestID: 1, StreamTag: 1, Error: "no disk"}) == nil {
		t.Fatal("the $/streamError of the referred stream gave nothing to mark")
	}
	if s.remoteError(StreamErrorParams{RequestID: 1, StreamTag: 1, Error: "again"}) != nil {
		t.Fatal("a repeated $/streamError was marked again")
	}
	if s.remoteError(StreamErrorParams{RequestID: 99, StreamTag: 1, Error: "who?"}) != nil {
		t.Fatal("a $/streamError for a request never sent was marked")
	}
	if got, want := s.ignoredReports(), uint64(flood+2); got != want {
		t.Fatalf("ignored %d, want %d", got, want)
	}
	if err := s.await(context.Background(), 1); err == nil || !strings.Contains(err.Error(), "no disk") {
		t.Fatalf("await: %v", err)
	}
}

// Before the answer a few reports for streams not arrived are kept (their
// headers may still come); the rest are ignored, and those the result does
// not refer to are forgotten when it comes.
func TestStreamTableEarlyReportsCapped(t *testing.T) {
	s := newStreamTable()
	s.sent(2)
	for tag := uint32(1); tag <= 100; tag++ {
		_ = s.remoteError(StreamErrorParams{RequestID: 2, StreamTag: tag, Error: "early"})
	}
	if n := streamsOf(s, 2); n != maxEarlyReports {
		t.Fatalf("%d early reports kept, want %d", n, maxEarlyReports)
	}
	if got := s.ignoredReports(); got != 100-maxEarlyReports {
		t.Fatalf("ignored %d", got)
	}
	s.answered(2, []StreamRef{{Type: ContentStreamRef, StreamTag: 3}})
	if n := streamsOf(s, 2); n != 1 {
		t.Fatalf("%d streams after the answer, want the 1 referred to", n)
	}
	if err := s.await(context.Background(), 2); err == nil || !strings.Contains(err.Error(), `"early"`) {
		t.Fatalf("await: %v", err)
	}
}

// A request has at most MaxStreamsPerRequest streams: one more is refused.
func TestStreamTableStreamsPerRequestCapped(t *testing.T) {
	s := newStreamTable()
	s.sent(3)
	for tag := range uint32(MaxStreamsPerRequest) {
		if r := s.open(3, tag); r != "" {
			t.Fatalf("stream %d refused: %s", tag, r)
		}
		_ = s.ended(3, tag, 0, nil)
	}
	if r := s.open(3, MaxStreamsPerRequest); !strings.Contains(r, "has 1024 streams already") {
		t.Fatalf("stream past the cap: %q", r)
	}
	refs := make([]StreamRef, 0, MaxStreamsPerRequest+10)
	for tag := range uint32(MaxStreamsPerRequest + 10) {
		refs = append(refs, StreamRef{Type: ContentStreamRef, StreamTag: tag})
	}
	s.answered(3, refs)
	if n := streamsOf(s, 3); n != MaxStreamsPerRequest {
		t.Fatalf("%d streams after a result referring to %d", n, len(refs))
	}
}
