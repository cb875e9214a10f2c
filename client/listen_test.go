package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// listenLog collects the events of one Listen, safe for the engine's
// goroutines.
type listenLog struct {
	mu     sync.Mutex
	events []ListenEvent
}

func (l *listenLog) add(ev ListenEvent) {
	l.mu.Lock()
	l.events = append(l.events, ev)
	l.mu.Unlock()
}

// kinds renders the events as "opened#1 acknowledged notified:…".
func (l *listenLog) kinds() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, ev := range l.events {
		s := ev.Kind.String()
		switch ev.Kind {
		case ListenOpened:
			s += fmt.Sprintf("#%d", ev.Round)
		case ListenNotified:
			s += ":" + ev.Message.Method
		}
		out = append(out, s)
	}
	return out
}

// tagged is params carrying the subscription id of the request m.
func tagged(m *jsonrpc.Message, params map[string]any) map[string]any {
	out := map[string]any{"_meta": map[string]any{mcp.MetaSubscriptionID: m.ID}}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// ack acknowledges the subscriptions/listen request m.
func (s *fakeServer) ack(m *jsonrpc.Message) {
	s.notify(mcp.MethodNotifySubscriptionsAck, tagged(m, map[string]any{"notifications": map[string]any{"toolsListChanged": true}}))
}

var listenParams = map[string]any{"notifications": map[string]any{"toolsListChanged": true, "resourceSubscriptions": []string{"test://w"}}}

func TestListenRoutesTaggedNotificationsUntilTheServerEnds(t *testing.T) {
	var untagged sync.WaitGroup
	untagged.Add(1)
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method != mcp.MethodSubscriptionsListen {
			return
		}
		var p struct {
			Meta          map[string]json.RawMessage `json:"_meta"`
			Notifications map[string]any             `json:"notifications"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if p.Meta[mcp.MetaProtocolVersion] == nil || p.Notifications["toolsListChanged"] != true {
			t.Errorf("listen params lack the modern _meta or the filter: %s", m.Params)
		}
		srv.notify("notifications/message", map[string]any{"level": "info", "data": "not on the subscription"})
		srv.notify(mcp.MethodNotifyResourceUpdated, map[string]any{"uri": "test://w", "_meta": map[string]any{mcp.MetaSubscriptionID: 999}})
		srv.ack(m)
		srv.notify(mcp.MethodNotifyResourceUpdated, tagged(m, map[string]any{"uri": "test://w"}))
		srv.notify(mcp.MethodNotifyToolsListChanged, tagged(m, nil))
		srv.rawResult(*m.ID, `{"resultType":"complete","_meta":{}}`)
	}), Options{OnNotification: func(m *jsonrpc.Message) {
		if m.Method == "notifications/message" {
			untagged.Done()
		}
	}})
	var log listenLog
	res, err := s.Listen(testCtx(t), listenParams, log.add)
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != `{"resultType":"complete","_meta":{}}` {
		t.Errorf("result = %s", res)
	}
	want := []string{"opened#1", "acknowledged", "notified:" + mcp.MethodNotifyResourceUpdated, "notified:" + mcp.MethodNotifyToolsListChanged}
	if got := log.kinds(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	untagged.Wait() // the notification for no subscription still reached the session
}

func TestListenReissuesABrokenStreamUnderANewID(t *testing.T) {
	shrinkListenBackoff(t)
	var ids []jsonrpc.ID
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method != mcp.MethodSubscriptionsListen {
			return
		}
		ids = append(ids, *m.ID)
		srv.ack(m)
		if len(ids) == 1 {
			// The transport lost the stream: the answer will never come.
			srv.out <- &jsonrpc.Message{ID: m.ID, Violation: &ExchangeError{Err: errors.New("the answer stream ended before its answer")}}
			return
		}
		srv.notify(mcp.MethodNotifyToolsListChanged, tagged(m, nil))
		srv.rawResult(*m.ID, `{}`)
	}), Options{})
	var log listenLog
	if _, err := s.Listen(testCtx(t), listenParams, log.add); err != nil {
		t.Fatal(err)
	}
	want := []string{"opened#1", "acknowledged", "broken", "opened#2", "acknowledged", "notified:" + mcp.MethodNotifyToolsListChanged}
	if got := log.kinds(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	if len(ids) != 2 || ids[0].Key() == ids[1].Key() {
		t.Fatalf("listen ids = %v, want two different ids", ids)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, ev := range log.events {
		if ev.Kind == ListenBroken && (ev.ID.Key() != ids[0].Key() || ev.Final || ev.Err == nil || ev.Retry != listenBackoffStart) {
			t.Errorf("broken event = %+v", ev)
		}
		if ev.Kind == ListenNotified && ev.ID.Key() != ids[1].Key() {
			t.Errorf("notification routed to %s, want the re-issued id %s", ev.ID, ids[1])
		}
	}
}

func shrinkListenBackoff(t *testing.T) {
	start, limit := listenBackoffStart, listenBackoffCap
	listenBackoffStart, listenBackoffCap = time.Millisecond, 4*time.Millisecond
	t.Cleanup(func() { listenBackoffStart, listenBackoffCap = start, limit })
}

func TestListenGivesUpAfterFiveBreaksWithoutAnAcknowledgement(t *testing.T) {
	shrinkListenBackoff(t)
	sent := 0
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodSubscriptionsListen {
			sent++
			srv.out <- &jsonrpc.Message{ID: m.ID, Violation: &ExchangeError{Err: errors.New("503 Service Unavailable")}}
		}
	}), Options{})
	var log listenLog
	_, err := s.Listen(testCtx(t), listenParams, log.add)
	var xe *ExchangeError
	if !errors.As(err, &xe) {
		t.Fatalf("err = %v, want the last ExchangeError", err)
	}
	if sent != maxListenBreaks {
		t.Errorf("sent %d listen requests, want %d", sent, maxListenBreaks)
	}
	log.mu.Lock()
	last := log.events[len(log.events)-1]
	log.mu.Unlock()
	if last.Kind != ListenBroken || !last.Final {
		t.Errorf("last event = %+v, want a final break", last)
	}
}

func TestListenWantsAnAcknowledgementWithinTheIdleLimit(t *testing.T) {
	cancelled := make(chan jsonrpc.ID, 1)
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyCancelled {
			var p mcp.CancelledNotificationParams
			_ = json.Unmarshal(m.Params, &p)
			cancelled <- p.RequestID
		}
	}), Options{Timeout: 50 * time.Millisecond})
	var log listenLog
	_, err := s.Listen(testCtx(t), listenParams, log.add)
	var te *TimeoutError
	if !errors.As(err, &te) || te.MaxTime {
		t.Fatalf("err = %v, want an idle timeout", err)
	}
	select {
	case id := <-cancelled:
		if id.Key() != te.ID.Key() {
			t.Errorf("cancelled %s, want %s", id, te.ID)
		}
	case <-time.After(hangGuard):
		t.Fatalf("the unacknowledged listen was never cancelled within %s", hangGuard)
	}
}

func TestListenOutlivesTheIdleLimitOnceAcknowledged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle = time.Second
		s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
			if m.Method != mcp.MethodSubscriptionsListen {
				return
			}
			srv.ack(m)
			time.Sleep(idle * 5 / 2) // silence far past the idle limit
			srv.notify(mcp.MethodNotifyResourceUpdated, tagged(m, map[string]any{"uri": "test://w"}))
			srv.rawResult(*m.ID, `{}`)
		}), Options{Timeout: idle})
		var log listenLog
		if _, err := s.Listen(testCtx(t), listenParams, log.add); err != nil {
			t.Fatalf("an acknowledged, silent subscription ended: %v", err)
		}
		if got := log.kinds(); len(got) != 3 {
			t.Errorf("events = %v", got)
		}
	})
}

func TestListenEndsAtItsMaxTimeAndCancels(t *testing.T) {
	cancelled := make(chan struct{}, 1)
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		switch m.Method {
		case mcp.MethodSubscriptionsListen:
			srv.ack(m)
		case mcp.MethodNotifyCancelled:
			cancelled <- struct{}{}
		}
	}), Options{})
	var log listenLog
	_, err := s.Listen(testCtx(t), listenParams, log.add, WithMaxTime(100*time.Millisecond))
	var te *TimeoutError
	if !errors.As(err, &te) || !te.MaxTime {
		t.Fatalf("err = %v, want the max time", err)
	}
	if got := log.kinds(); fmt.Sprint(got) != "[opened#1 acknowledged]" {
		t.Errorf("events = %v", got)
	}
	select {
	case <-cancelled:
	case <-time.After(hangGuard):
		t.Fatalf("the listen was never cancelled within %s", hangGuard)
	}
}

func TestListenStopsWithItsContext(t *testing.T) {
	acked := make(chan struct{})
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodSubscriptionsListen {
			srv.ack(m)
		}
	}), Options{})
	ctx, cancel := context.WithCancel(testCtx(t))
	_, err := s.Listen(ctx, listenParams, func(ev ListenEvent) {
		if ev.Kind == ListenAcknowledged {
			close(acked)
			cancel()
		}
	}, WithMaxTime(0))
	var ce *CancelledError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a CancelledError", err)
	}
	if s.InFlight() != 0 {
		t.Errorf("%d requests still in flight", s.InFlight())
	}
}

func TestListenRefusedByTheServer(t *testing.T) {
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.ID != nil {
			srv.fail(*m.ID, mcp.CodeMethodNotFound, "Method not found")
		}
	}), Options{})
	var log listenLog
	_, err := s.Listen(testCtx(t), listenParams, log.add)
	var re *RPCError
	if !errors.As(err, &re) || re.Err.Code != mcp.CodeMethodNotFound {
		t.Fatalf("err = %v, want -32601", err)
	}
	if got := log.kinds(); fmt.Sprint(got) != "[opened#1]" {
		t.Errorf("a refused listen was re-issued: %v", got)
	}
}

// A server that refuses the subscription with an HTTP status is not asked
// again: the refusal is the answer.
func TestListenRefusedByStatusIsNotReissued(t *testing.T) {
	shrinkListenBackoff(t)
	sent := 0
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodSubscriptionsListen {
			sent++
			srv.out <- &jsonrpc.Message{ID: m.ID, Violation: &ExchangeError{Status: 400, Err: errors.New("400 Bad Request")}}
		}
	}), Options{})
	var log listenLog
	_, err := s.Listen(testCtx(t), listenParams, log.add)
	var xe *ExchangeError
	if !errors.As(err, &xe) || xe.Status != 400 || sent != 1 {
		t.Fatalf("err = %v after %d requests, want the 400 after one", err, sent)
	}
}

// Once Listen returned, a notification still queued for its subscription
// is not reported.
func TestListenReportsNothingAfterItReturns(t *testing.T) {
	release := make(chan struct{})
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodSubscriptionsListen {
			srv.ack(m)
			<-release
			srv.notify(mcp.MethodNotifyToolsListChanged, tagged(m, nil))
		}
	}), Options{})
	ctx, cancel := context.WithCancel(testCtx(t))
	var log listenLog
	_, _ = s.Listen(ctx, listenParams, func(ev ListenEvent) {
		log.add(ev)
		if ev.Kind == ListenAcknowledged {
			cancel()
		}
	})
	close(release)
	time.Sleep(50 * time.Millisecond) // room for a late report, which must not come
	if got := log.kinds(); fmt.Sprint(got) != "[opened#1 acknowledged]" {
		t.Errorf("events = %v", got)
	}
}
