package load

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// fakeClock is a clock whose time moves only when a worker sleeps or a
// call says it took some time.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) bool {
	c.advance(d)
	return ctx.Err() == nil
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestRequestsCountExact(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 7, 64} {
		var calls atomic.Int64
		snap, err := Run(context.Background(), Config{Concurrency: conc, Requests: 1000}, func(context.Context) error {
			calls.Add(1)
			runtime.Gosched()
			return nil
		}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 1000 || snap.Started != 1000 || snap.Completed != 1000 || snap.Timed != 1000 {
			t.Errorf("concurrency %d: %d calls made, snapshot %+v; want 1000 of each", conc, calls.Load(), snap)
		}
	}
}

func TestRateSpreadsStartsOnTheSchedule(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	start := clk.Now()
	var mu sync.Mutex
	var starts []time.Duration
	// One worker: with more, a call reads the fake clock after another
	// worker's wait has moved it on, and its start reads late.
	cfg := Config{Concurrency: 1, Rate: 100, Duration: time.Second}
	snap, err := run(context.Background(), cfg, func(context.Context) error {
		mu.Lock()
		starts = append(starts, clk.Now().Sub(start))
		mu.Unlock()
		return nil
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	// 100 a second for one second: at 0, 10ms … 990ms; the 101st would
	// start at the end.
	if snap.Started != 100 || len(starts) != 100 {
		t.Fatalf("started %d calls (%d seen), want 100", snap.Started, len(starts))
	}
	for i, at := range starts {
		if want := time.Duration(i) * 10 * time.Millisecond; at != want {
			t.Fatalf("call %d started at %s, want %s", i, at, want)
		}
	}
}

func TestRateBehindStartsWhatIsDue(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	start := clk.Now()
	var starts []time.Duration
	// One worker whose calls take 50ms at a rate of 100/s: each call is
	// due already and starts as soon as the previous one ends.
	_, err := run(context.Background(), Config{Concurrency: 1, Rate: 100, Requests: 5}, func(context.Context) error {
		starts = append(starts, clk.Now().Sub(start))
		clk.advance(50 * time.Millisecond)
		return nil
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range starts {
		if want := time.Duration(i) * 50 * time.Millisecond; at != want {
			t.Fatalf("call %d started at %s, want %s", i, at, want)
		}
	}
}

func TestLatencyAndErrorsByKind(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	var n atomic.Int64
	outcomes := []error{
		nil,
		&client.RPCError{Method: "tools/call", Err: &jsonrpc.Error{Code: -32603, Message: "boom"}},
		&client.ToolFailure{Tool: "t", Kind: client.ToolIsError},
		&client.TimeoutError{Method: "tools/call", After: "1s"},
		&client.ConnectionError{Err: errors.New("gone")},
	}
	snap, err := run(context.Background(), Config{Concurrency: 1, Requests: 100}, func(ctx context.Context) error {
		i := n.Add(1) - 1
		clk.advance(time.Duration(i+1) * time.Millisecond) // 1ms … 100ms
		Answered(ctx)
		clk.advance(time.Hour) // what the call does after its answer is not timed
		return outcomes[i%int64(len(outcomes))]
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"rpc -32603": 20, KindToolError: 20, KindTimeout: 20, KindConnection: 20}
	if len(snap.Errors) != len(want) {
		t.Errorf("errors %v, want %v", snap.Errors, want)
	}
	for k, c := range want {
		if snap.Errors[k] != c {
			t.Errorf("errors %v, want %v", snap.Errors, want)
		}
	}
	if snap.Completed != 100 || snap.ErrorCount() != 80 || snap.Timed != 60 {
		t.Errorf("completed %d, errors %d, timed %d; want 100, 80, 60", snap.Completed, snap.ErrorCount(), snap.Timed)
	}
	// The timed calls are those numbered 1,2,3 (mod 5) from 1ms to 100ms.
	if snap.Min != time.Millisecond || snap.Max != 98*time.Millisecond {
		t.Errorf("min %s max %s, want 1ms and 98ms", snap.Min, snap.Max)
	}
	if snap.P50 < 45*time.Millisecond || snap.P50 > 55*time.Millisecond {
		t.Errorf("p50 %s, want about 50ms", snap.P50)
	}
}

func TestErrorKindsAreBounded(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	snap, err := Run(context.Background(), Config{Requests: 500}, func(context.Context) error {
		return &client.RPCError{Err: &jsonrpc.Error{Code: int(n.Add(1))}}
	}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Errors) != maxKinds+1 || snap.Errors[KindOther] != 500-maxKinds {
		t.Errorf("%d kinds, %d other; want %d kinds and %d other", len(snap.Errors), snap.Errors[KindOther], maxKinds+1, 500-maxKinds)
	}
}

func TestKind(t *testing.T) {
	t.Parallel()
	for err, want := range map[error]string{
		nil: "",
		&client.RPCError{Err: &jsonrpc.Error{Code: -32602}}:                                         "rpc -32602",
		&client.ToolFailure{Kind: client.ToolOutputInvalid}:                                         KindToolOutput,
		&client.ProtocolError{Msg: "x"}:                                                             KindProtocol,
		client.ErrClosed:                                                                            KindConnection,
		&client.ExchangeError{Status: 503, Err: errors.New("x")}:                                    "http 503",
		&client.CancelledError{Err: context.Canceled}:                                               KindCanceled,
		context.DeadlineExceeded:                                                                    KindTimeout,
		errors.New("what"):                                                                          KindOther,
		&client.ExchangeError{Err: errors.New("broken stream")}:                                     KindExchange,
		&client.TimeoutError{Method: "m", Sending: client.ErrStoppedReading}:                        KindTimeout,
		&client.ExchangeError{Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}: KindConnection,
		&client.ExchangeError{Err: fmt.Errorf("post: %w", syscall.ECONNRESET)}:                      KindConnection,
		&answers.UnansweredError{Method: "elicitation/create"}:                                      KindUnanswered,
	} {
		if got := Kind(err); got != want {
			t.Errorf("Kind(%v) = %q, want %q", err, got, want)
		}
	}
}

func TestCancelStopsTheRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped")
	var n atomic.Int64
	snap, err := Run(ctx, Config{Concurrency: 8, Duration: time.Hour}, func(ctx context.Context) error {
		if n.Add(1) == 50 {
			cancel(stop)
		}
		return ctx.Err()
	}, nil, 0)
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want the cause", err)
	}
	// The calls the stop cut off are unfinished, not errors.
	if snap.Started < 50 || snap.Started != snap.Completed+snap.Unfinished || snap.Unfinished == 0 || snap.ErrorCount() != 0 {
		t.Errorf("started %d completed %d unfinished %d errors %v, want ≥ 50 = completed + unfinished, no error", snap.Started, snap.Completed, snap.Unfinished, snap.Errors)
	}
}

func TestProgressWindows(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var windows, done int
	block := make(chan struct{})
	var once sync.Once
	snap, err := Run(context.Background(), Config{Concurrency: 2, Requests: 200}, func(ctx context.Context) error {
		once.Do(func() { <-block }) // hold the run until a snapshot came
		return nil
	}, func(s Snapshot) {
		mu.Lock()
		windows++
		done += s.Window.Completed
		mu.Unlock()
		select {
		case <-block:
		default:
			close(block)
		}
	}, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if windows == 0 || done > snap.Completed {
		t.Errorf("%d windows adding to %d calls of %d", windows, done, snap.Completed)
	}
}

func TestConfigRefused(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{{}, {Requests: -1}, {Duration: time.Second, Rate: -1}, {Requests: 1, Concurrency: -2},
		{Requests: 1, Rate: math.NaN()}, {Requests: 1, Rate: math.Inf(1)}, {Requests: 1, Rate: math.Inf(-1)}} {
		if _, err := Run(context.Background(), cfg, func(context.Context) error { return nil }, nil, 0); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
