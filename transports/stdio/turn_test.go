//go:build unix

package stdio

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// A server that reads slowly but steadily (about 1.6 MB/s) while 60
// answers of 64 KB each are sent at once with a limit of 500 ms each:
// each write takes far less than the limit, all of them together far
// more; waiting behind the others is no sign that the server stopped
// reading, so every answer goes out.
func TestAnswersQueuedBehindASteadyReaderAllGoOut(t *testing.T) {
	const answers = 60
	tr, _, _ := startFake(t, "slow-reader", nil)
	big := strings.Repeat("r", 64<<10)
	errs := make(chan error, answers)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := jsonrpc.NewResult(jsonrpc.IntID(int64(i)), map[string]string{"data": big})
			if err != nil {
				errs <- err
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			errs <- tr.Send(ctx, m)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("an answer queued behind others the server takes: %v", err)
		}
	}
}

// An answer that waits longer than its limit while the writes ahead of it
// keep ending keeps its place among the writers waiting: requests queued
// after it do not pass it. Three writes of 40 ms are ahead of the answer
// (limit 100 ms), five requests queue 30 ms after it.
func TestAnAnswerKeepsItsPlaceInTheQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := New(Config{})
		var (
			order   []string
			writers sync.WaitGroup
		)
		write := func(ctx context.Context, name string, m *jsonrpc.Message) {
			_, give, err := tr.takeTurn(ctx, m)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			order = append(order, name)
			time.Sleep(40 * time.Millisecond) // the write
			give()
		}
		request, err := jsonrpc.NewRequest(jsonrpc.IntID(2), "ping", nil)
		if err != nil {
			t.Fatal(err)
		}
		answer, err := jsonrpc.NewResult(jsonrpc.IntID(1), map[string]string{})
		if err != nil {
			t.Fatal(err)
		}
		tr.wslot <- struct{}{} // the first write, under way
		for _, name := range []string{"X2", "X3"} {
			writers.Go(func() { write(context.Background(), name, request) })
			synctest.Wait()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		writers.Go(func() { write(ctx, "A", answer) })
		synctest.Wait()
		time.Sleep(30 * time.Millisecond)
		for i := range 5 {
			writers.Go(func() { write(context.Background(), fmt.Sprint("Y", i), request) })
			synctest.Wait()
		}
		time.Sleep(10 * time.Millisecond) // the first write ends at 40 ms
		tr.giveTurn()
		writers.Wait()
		if got := strings.Join(order, " "); got != "X2 X3 A Y0 Y1 Y2 Y3 Y4" {
			t.Fatalf("order of the writes: %s; the answer must keep its place", got)
		}
	})
}
