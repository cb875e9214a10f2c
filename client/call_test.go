package client

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// echoN answers every request with {"n": params.n, "id": its id}.
func echoN(s *fakeServer, m *jsonrpc.Message) {
	if m.Kind() != jsonrpc.KindRequest {
		return
	}
	var p struct {
		N int `json:"n"`
	}
	_ = json.Unmarshal(m.Params, &p)
	s.result(*m.ID, map[string]any{"n": p.N, "id": m.ID})
}

func requestIDs(msgs []*jsonrpc.Message) []int64 {
	var ids []int64
	for _, m := range msgs {
		if m.Kind() == jsonrpc.KindRequest {
			n, _ := m.ID.Int()
			ids = append(ids, n)
		}
	}
	return ids
}

func TestIDsAreMonotonicAndMatched(t *testing.T) {
	s, ft := connect(t, serve(false, echoN), Options{})
	ctx := testCtx(t)
	for i := 0; i < 5; i++ {
		raw, err := s.Call(ctx, "tools/call", map[string]int{"n": i})
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		var r struct {
			N  int   `json:"n"`
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(raw, &r); err != nil || r.N != i {
			t.Fatalf("call %d got %s", i, raw)
		}
	}
	ids := requestIDs(ft.srv.sentMessages())
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("request ids %v are not 1, 2, 3, …", ids)
		}
	}
	if len(ids) != 7 { // discover, initialize, 5 calls
		t.Fatalf("sent %d requests, want 7: %v", len(ids), ids)
	}
}

// TestConcurrentCallsMatchedOutOfOrder holds 128 requests, answers them in
// reverse then shuffled order, salted with responses nobody asked for.
func TestConcurrentCallsMatchedOutOfOrder(t *testing.T) {
	for _, order := range []string{"reverse", "random"} {
		t.Run(order, func(t *testing.T) {
			const n = 128
			script := func(srv *fakeServer) {
				ok := srv.handshake(false, mcp.LatestLegacy)
				var held []*jsonrpc.Message
				for ok && len(held) < n {
					var m *jsonrpc.Message
					if m, ok = srv.next(); ok {
						held = append(held, m)
					}
				}
				if order == "reverse" {
					for i, j := 0, len(held)-1; i < j; i, j = i+1, j-1 {
						held[i], held[j] = held[j], held[i]
					}
				} else {
					rand.Shuffle(len(held), func(i, j int) { held[i], held[j] = held[j], held[i] })
				}
				srv.rawResult(jsonrpc.IntID(99999), `{"n":-1}`)      // unknown id
				srv.rawResult(jsonrpc.StringID("99999"), `{"n":-2}`) // a string twin of an id never sent
				for _, h := range held {
					echoN(srv, h)
				}
				for {
					if _, ok := srv.next(); !ok {
						return
					}
				}
			}
			s, _ := connect(t, script, Options{})
			ctx := testCtx(t)
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					raw, err := s.Call(ctx, "tools/call", map[string]int{"n": i})
					if err != nil {
						errs <- err
						return
					}
					var r struct{ N int }
					if json.Unmarshal(raw, &r) != nil || r.N != i {
						errs <- errors.New("call got another call's answer: " + string(raw))
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if got := s.InFlight(); got != 0 {
				t.Fatalf("InFlight after all answers = %d", got)
			}
		})
	}
}

func TestMaxInFlightBlocks(t *testing.T) {
	release := make(chan struct{})
	received := make(chan int64, 16)
	script := func(srv *fakeServer) {
		ok := srv.handshake(false, mcp.LatestLegacy)
		var held []*jsonrpc.Message
		for ok {
			var m *jsonrpc.Message
			if m, ok = srv.next(); !ok {
				return
			}
			if m.Kind() == jsonrpc.KindRequest {
				id, _ := m.ID.Int()
				received <- id
				held = append(held, m)
			}
			if len(held) == 2 {
				<-release
				for _, h := range held {
					echoN(srv, h)
				}
				held = nil
			}
		}
	}
	s, _ := connect(t, script, Options{MaxInFlight: 2})
	ctx := testCtx(t)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Call(ctx, "a", map[string]int{"n": i}); err != nil {
				t.Errorf("held call: %v", err)
			}
		}()
	}
	<-received
	<-received
	if got := s.InFlight(); got != 2 {
		t.Fatalf("InFlight = %d, want 2", got)
	}
	blocked, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := s.Call(blocked, "b", nil)
		errc <- err
	}()
	cancel()
	if err := <-errc; !errors.Is(err, ErrTooManyInFlight) || !errors.Is(err, context.Canceled) {
		t.Fatalf("third call with a full tracker: %v, want ErrTooManyInFlight", err)
	}
	// A fourth call waits for a slot, then goes through.
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "c", map[string]int{"n": 7})
		done <- err
	}()
	close(release)
	wg.Wait()
	select {
	case id := <-received:
		if id != 5 { // discover 1, initialize 2, held 3 and 4; the cancelled call never got an id
			t.Fatalf("waiting call was sent as id %d, want 5", id)
		}
	case <-time.After(hangGuard):
		t.Fatalf("the waiting call was never sent within %s", hangGuard)
	}
	// Its answer comes once a second request joins it (the script answers in twos).
	go func() { _, _ = s.Call(ctx, "d", nil) }()
	if err := <-done; err != nil {
		t.Fatalf("waiting call: %v", err)
	}
}

// cancelledFor waits for the notifications/cancelled the client sends.
func cancelledFor(t *testing.T, notes <-chan *jsonrpc.Message) mcp.CancelledNotificationParams {
	t.Helper()
	select {
	case m := <-notes:
		var p mcp.CancelledNotificationParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatalf("cancelled params %s: %v", m.Params, err)
		}
		return p
	case <-time.After(hangGuard):
		t.Fatalf("no notifications/cancelled arrived within %s", hangGuard)
	}
	return mcp.CancelledNotificationParams{}
}

// silentServer records cancellations and answers only "quick".
func silentServer(cancels chan<- *jsonrpc.Message, onRequest func(srv *fakeServer, m *jsonrpc.Message)) func(*fakeServer) {
	return serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		switch {
		case m.Method == mcp.MethodNotifyCancelled:
			cancels <- m
		case m.Method == "quick":
			echoN(srv, m)
		case onRequest != nil && m.Kind() == jsonrpc.KindRequest:
			onRequest(srv, m)
		}
	})
}

func TestTimeoutSendsCancelled(t *testing.T) {
	cancels := make(chan *jsonrpc.Message, 4)
	var slow *jsonrpc.ID
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		switch m.Method {
		case "slow":
			slow = m.ID // never answered in time
		case mcp.MethodNotifyCancelled:
			cancels <- m
		case "quick":
			srv.rawResult(*slow, `{"n":-1}`) // the late answer to the abandoned request
			echoN(srv, m)
		}
	}), Options{Timeout: 100 * time.Millisecond})
	ctx := testCtx(t)
	var id jsonrpc.ID
	_, err := s.Call(ctx, "slow", nil, WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
	var te *TimeoutError
	if !errors.As(err, &te) || te.ID != id || te.Method != "slow" {
		t.Fatalf("err = %v, want a TimeoutError for slow id %s", err, id)
	}
	p := cancelledFor(t, cancels)
	if p.RequestID != id || p.Reason == "" {
		t.Fatalf("cancelled %+v, want requestId %s with a reason", p, id)
	}
	raw, err := s.Call(ctx, "quick", map[string]int{"n": 1})
	if err != nil || string(raw) == `{"n":-1}` {
		t.Fatalf("call after timeout: %s, %v", raw, err)
	}
}

func TestIdleTimeoutRestartedByProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const steps = 20
		s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
			if m.Kind() != jsonrpc.KindRequest {
				return
			}
			token := progressTokenOf(m)
			for i := 1; i <= steps; i++ {
				time.Sleep(50 * time.Millisecond)
				srv.notify(mcp.MethodNotifyProgress, mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i)})
			}
			srv.result(*m.ID, map[string]bool{"done": true})
		}), Options{Timeout: 500 * time.Millisecond})
		var mu sync.Mutex
		var seen []float64
		raw, err := s.Call(testCtx(t), "long", nil, WithProgress(func(p mcp.ProgressNotificationParams) {
			mu.Lock()
			seen = append(seen, p.Progress)
			mu.Unlock()
		}))
		if err != nil {
			t.Fatalf("a call kept alive by progress for twice its idle limit failed: %v", err)
		}
		if string(raw) != `{"done":true}` {
			t.Fatalf("result %s", raw)
		}
		mu.Lock()
		defer mu.Unlock()
		// Progress read before the response is handled before Call returns.
		if len(seen) != steps {
			t.Fatalf("progress seen %v, want %d in order", seen, steps)
		}
		for i, v := range seen {
			if v != float64(i+1) {
				t.Fatalf("progress out of order: %v", seen)
			}
		}
	})
}

func TestHardCapFiresDespiteProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cancels := make(chan *jsonrpc.Message, 4)
		stop := make(chan struct{})
		defer close(stop)
		s, _ := connect(t, silentServer(cancels, func(srv *fakeServer, m *jsonrpc.Message) {
			go func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					case <-srv.gone:
						return
					case <-time.After(20 * time.Millisecond):
						srv.notify(mcp.MethodNotifyProgress, map[string]any{"progressToken": m.ID, "progress": i})
					}
				}
			}()
		}), Options{Timeout: 300 * time.Millisecond, HardTimeout: time.Second})
		var id jsonrpc.ID
		_, err := s.Call(testCtx(t), "endless", nil,
			WithProgress(func(mcp.ProgressNotificationParams) {}),
			WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
		var te *TimeoutError
		if !errors.As(err, &te) || !te.MaxTime || te.After != "1s" {
			t.Fatalf("err = %v, want the hard cap to fire", err)
		}
		if p := cancelledFor(t, cancels); p.RequestID != id {
			t.Fatalf("cancelled %s, want %s", p.RequestID, id)
		}
	})
}

func TestContextCancelSendsCancelled(t *testing.T) {
	cancels := make(chan *jsonrpc.Message, 4)
	arrived := make(chan jsonrpc.ID, 4)
	s, _ := connect(t, silentServer(cancels, func(_ *fakeServer, m *jsonrpc.Message) { arrived <- *m.ID }), Options{})
	ctx, cancel := context.WithCancel(testCtx(t))
	errc := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "slow", nil)
		errc <- err
	}()
	id := <-arrived
	cancel()
	err := <-errc
	var ce *CancelledError
	if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) || ce.ID != id {
		t.Fatalf("err = %v, want a CancelledError wrapping context.Canceled", err)
	}
	if p := cancelledFor(t, cancels); p.RequestID != id {
		t.Fatalf("cancelled %s, want %s", p.RequestID, id)
	}

	// Cancel by id, as the UI does.
	go func() {
		_, err := s.Call(testCtx(t), "slow", nil)
		errc <- err
	}()
	id = <-arrived
	if err := s.Cancel(id, "user pressed x"); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	if err := <-errc; !errors.As(err, &ce) || ce.Reason != "user pressed x" {
		t.Fatalf("err = %v, want the cancel reason", err)
	}
	if p := cancelledFor(t, cancels); p.RequestID != id || p.Reason != "user pressed x" {
		t.Fatalf("cancelled %+v", p)
	}
	if err := s.Cancel(jsonrpc.IntID(4242), "nothing"); err == nil {
		t.Fatal("Cancel of an id not in flight succeeded")
	}
}

func TestProgressBeforeResponseHandledBeforeCallReturns(t *testing.T) {
	const steps = 50
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Kind() != jsonrpc.KindRequest {
			return
		}
		token := progressTokenOf(m)
		for i := 1; i <= steps; i++ {
			srv.notify(mcp.MethodNotifyProgress, mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i)})
		}
		srv.result(*m.ID, map[string]bool{"done": true})
	}), Options{})
	var mu sync.Mutex
	seen := 0
	_, err := s.Call(testCtx(t), "burst", nil, WithProgress(func(mcp.ProgressNotificationParams) {
		time.Sleep(2 * time.Millisecond) // a slow consumer: the response overtakes the queue
		mu.Lock()
		seen++
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen != steps {
		t.Fatalf("Call returned after %d of %d progress callbacks", seen, steps)
	}
}

// progressTokenOf returns the _meta.progressToken of a request.
func progressTokenOf(m *jsonrpc.Message) jsonrpc.ID {
	var p struct {
		Meta struct {
			ProgressToken jsonrpc.ID `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.Meta.ProgressToken
}

// TestSlotWaitEndsWithTheIdleLimit: a request that finds every in-flight
// slot taken waits for one no longer than its idle limit, even under a
// context that never ends; waiting for a slot is no sign of life.
func TestSlotWaitEndsWithTheIdleLimit(t *testing.T) {
	received := make(chan struct{}, 1)
	script := func(srv *fakeServer) {
		ok := srv.handshake(false, mcp.LatestLegacy)
		for ok {
			var m *jsonrpc.Message
			if m, ok = srv.next(); ok && m.Kind() == jsonrpc.KindRequest {
				received <- struct{}{} // never answered
			}
		}
	}
	s, _ := connect(t, script, Options{MaxInFlight: 1, Timeout: 50 * time.Millisecond})
	held := make(chan error, 1)
	go func() {
		_, err := s.Call(testCtx(t), "held", nil, WithTimeout(hangGuard))
		held <- err
	}()
	<-received
	_, err := s.Call(context.Background(), "waiting", nil)
	if !errors.Is(err, ErrTooManyInFlight) || !strings.Contains(err.Error(), "waiting") {
		t.Fatalf("a call with every slot taken: %v, want ErrTooManyInFlight naming it", err)
	}
}
