package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// Past MaxServerRequests being answered, a request from the server is
// answered at once with a busy error naming how many are in flight, and
// counted; a ping is still answered {}, without a handler.
func TestServerRequestsPastLimitRefusedBusy(t *testing.T) {
	const extra = 44
	release := make(chan struct{})
	handler := handlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		select { // a human who never answers
		case <-release:
		case <-ctx.Done():
		}
		return nil, ctx.Err()
	})
	got := make(chan map[string]*proto.Message, 1)
	s, _ := connect(t, func(srv *fakeServer) {
		if !srv.handshake(false, proto.LatestLegacy) {
			return
		}
		for i := range MaxServerRequests + extra {
			srv.request(proto.IntID(int64(i)), proto.MethodElicitationCreate, proto.ElicitRequestParams{Message: "?"})
		}
		srv.request(proto.StringID("ping"), proto.MethodPing, nil)
		got <- answers(srv, extra+1)
	}, Options{Handler: handler})
	defer close(release)

	var res map[string]*proto.Message
	select {
	case res = <-got:
	case <-time.After(hangGuard):
		t.Fatal("the requests past the limit were not answered")
	}
	if m := res["sping"]; m == nil || string(m.Result) != `{}` {
		t.Errorf("ping answered %v, want {}", m)
	}
	for i := MaxServerRequests; i < MaxServerRequests+extra; i++ {
		m := res[proto.IntID(int64(i)).Key()]
		if m == nil || m.Error == nil || m.Error.Code != CodeClientBusy {
			t.Fatalf("request %d answered %v, want a busy error", i, m)
		}
		var data BusyData
		if err := json.Unmarshal(m.Error.Data, &data); err != nil || data != (BusyData{InFlight: 256, Limit: 256}) {
			t.Fatalf("busy data %s (%v)", m.Error.Data, err)
		}
		if want := "the client is busy: 256 requests from the server are already in flight, the most it answers at once; try again later"; m.Error.Message != want {
			t.Fatalf("busy message %q", m.Error.Message)
		}
	}
	if n := s.RefusedServerRequests(); n != extra {
		t.Fatalf("RefusedServerRequests = %d, want %d", n, extra)
	}
	if n := s.DroppedNotifications(); n != 0 {
		t.Fatalf("DroppedNotifications = %d, want 0", n)
	}
}

// The answers queue holds at most maxQueuedAnswers: past it push waits
// (back-pressure) until a send makes room, the session ends or a send finds
// the connection gone; nothing is dropped while the connection lives.
func TestAnswerQueueBackPressure(t *testing.T) {
	var q answerQueue
	dead := make(chan struct{})
	sent := make(chan *proto.Message)
	gate := make(chan error)
	send := func(m *proto.Message) error {
		err := <-gate
		if err == nil {
			sent <- m
		}
		return err
	}
	msg := func(i int) *proto.Message {
		id := proto.IntID(int64(i))
		return &proto.Message{JSONRPC: proto.Version, ID: &id, Result: proto.EmptyObject}
	}
	// One is taken by the sender (blocked in send), maxQueuedAnswers wait.
	for i := range maxQueuedAnswers + 1 {
		q.push(dead, msg(i), send)
	}
	waitFor(t, func() bool { q.mu.Lock(); defer q.mu.Unlock(); return len(q.items) == maxQueuedAnswers })
	pushed := make(chan struct{})
	go func() {
		q.push(dead, msg(maxQueuedAnswers+1), send)
		close(pushed)
	}()
	select {
	case <-pushed:
		t.Fatal("push into a full queue did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	gate <- nil
	if m := <-sent; m.ID.Key() != "i0" {
		t.Fatalf("sent %v first", m.ID)
	}
	waitClosed(t, pushed, "push after a send made room")

	// The connection goes: the queue is dropped and a waiting push returns.
	gate <- errors.New("write to a closed pipe")
	waitFor(t, func() bool { q.mu.Lock(); defer q.mu.Unlock(); return q.broken && len(q.items) == 0 })
	done := make(chan struct{})
	go func() {
		q.push(dead, msg(0), send)
		close(done)
	}()
	waitClosed(t, done, "push after the connection went")

	// A full queue whose session ended lets a waiting push go.
	var q2 answerQueue
	block := func(*proto.Message) error { <-dead; return errors.New("closed") }
	for i := range maxQueuedAnswers + 1 {
		q2.push(dead, msg(i), block)
	}
	done2 := make(chan struct{})
	go func() {
		q2.push(dead, msg(-1), block)
		close(done2)
	}()
	close(dead)
	waitClosed(t, done2, "push after the session ended")
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within the hang guard")
		}
		time.Sleep(time.Millisecond)
	}
}

func waitClosed(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(hangGuard):
		t.Fatalf("%s: still waiting after %s", what, hangGuard)
	}
}
