//go:build unix

package stdio

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto"
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
			m, err := proto.NewResult(proto.IntID(int64(i)), map[string]string{"data": big})
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
