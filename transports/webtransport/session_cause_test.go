package webtransport

import (
	"fmt"
	"testing"

	"github.com/quic-go/quic-go/http3"
)

// When webtransport-go reports a broken CONNECT stream as a local
// H3_DATAGRAM_ERROR carrying the cause as text, the cause is what is shown.
func TestSessionCauseOfABrokenConnectStream(t *testing.T) {
	err := fmt.Errorf("reading control frame header: %w",
		&http3.Error{ErrorCode: http3.ErrCodeDatagramError, ErrorMessage: "H3_INTERNAL_ERROR: misbehave drop"})
	if got, want := sessionCause(err).Error(), "the connection to the server broke (H3_INTERNAL_ERROR: misbehave drop)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	remote := &http3.Error{Remote: true, ErrorCode: http3.ErrCodeDatagramError, ErrorMessage: "bad datagram"}
	if got := sessionCause(remote); got != error(remote) {
		t.Fatalf("a datagram error from the server was reworded: %v", got)
	}
}
