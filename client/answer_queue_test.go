package client

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// pong is the answer to the ping with id i.
func pong(i int) *jsonrpc.Message {
	id := jsonrpc.IntID(int64(i))
	return &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Result: mcp.EmptyObject}
}

// A push never waits, even with a send stuck and the queue at its bound;
// one past the bound fails the connection with a *StoppedReadingError
// naming how many messages and bytes were queued, and later pushes are
// dropped.
func TestAnswerQueueNeverWaits(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := make(chan *StoppedReadingError, 1)
	q := &answerQueue{
		send:    func(*jsonrpc.Message) error { <-release; return nil },
		stuck:   func(err *StoppedReadingError) { stuck <- err },
		timeout: time.Second,
	}
	pushed := make(chan struct{})
	go func() {
		defer close(pushed)
		for i := range maxQueuedAnswers + 2 { // one is taken by the stuck send
			q.push(pong(i))
		}
		q.push(pong(-1))
	}()
	waitClosed(t, pushed, "pushing past the bound")
	var err *StoppedReadingError
	select {
	case err = <-stuck:
	default:
		t.Fatal("the queue passed its bound and the connection was not failed")
	}
	size := len(`{"jsonrpc":"2.0","id":12345,"result":{}}`)
	if err.Queued != maxQueuedAnswers+1 || err.Bytes < err.Queued*(size-4) || err.Bytes > err.Queued*size {
		t.Fatalf("stuck with %d messages / %d bytes", err.Queued, err.Bytes)
	}
	want := fmt.Sprintf("the server stopped reading: %d messages / %d bytes queued for it, past the bound of %d messages / %d bytes",
		err.Queued, err.Bytes, maxQueuedAnswers, maxQueuedAnswerBytes)
	if err.Error() != want || !errors.Is(err, ErrStoppedReading) {
		t.Fatalf("error %q, want %q", err, want)
	}
	if !q.ended || len(q.items) != 0 {
		t.Fatalf("the queue still holds %d answers", len(q.items))
	}
}

// A server that floods 2,000 pings and stops reading: the reader takes
// every ping at once (it never waits on the answers), and once the answer
// being sent is not taken within the timeout the session fails and closes
// the connection, naming the answers left queued; a later call says so.
func TestPingFloodToADeafServerFailsTheConnection(t *testing.T) {
	const pings = 2000 // cli's TestE2ERequestFloodToADeafServer sends 20,000 to a real process
	flooded := make(chan struct{})
	s, f := connect(t, func(srv *fakeServer) {
		if !srv.handshake(false, mcp.LatestLegacy) {
			return
		}
		srv.stopReading()
		for i := range pings {
			srv.request(jsonrpc.IntID(int64(i)), mcp.MethodPing, nil)
		}
		close(flooded)
	}, Options{Timeout: 300 * time.Millisecond})
	waitClosed(t, flooded, "the reader taking 2,000 pings from a server that does not read")
	waitClosed(t, f.Done(), "the connection closing")
	_, err := s.Call(testCtx(t), "tools/list", nil)
	var ce *ConnectionError
	var sr *StoppedReadingError
	if !errors.As(err, &ce) || !errors.As(err, &sr) || sr.Err == nil {
		t.Fatalf("call ended with %v, want the connection failed by answers not taken", err)
	}
	if !strings.HasPrefix(err.Error(), "connection lost: the server stopped reading: ") ||
		!strings.Contains(err.Error(), " messages / ") || !strings.Contains(err.Error(), "not taken within 300ms") {
		t.Fatalf("error %q", err)
	}
}

// An answer from a handler (roots/list) that the server does not take
// within the timeout fails the connection as well: nothing sent after it
// could reach the server.
func TestHandlerAnswerToADeafServerFailsTheConnection(t *testing.T) {
	s, f := connect(t, func(srv *fakeServer) {
		if !srv.handshake(false, mcp.LatestLegacy) {
			return
		}
		srv.stopReading()
		srv.request(jsonrpc.IntID(7), mcp.MethodRootsList, nil)
	}, Options{Timeout: 300 * time.Millisecond, Roots: []mcp.Root{{URI: "file:///a"}}})
	waitClosed(t, f.Done(), "the connection closing")
	_, err := s.Call(testCtx(t), "tools/list", nil)
	var sr *StoppedReadingError
	if !errors.As(err, &sr) || sr.Queued != 1 || sr.Err == nil {
		t.Fatalf("a call after the answer got stuck: %v, want the connection failed with 1 answer left", err)
	}
}
