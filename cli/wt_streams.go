package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// streamAwaiter is a transport whose results can refer to execution
// streams that arrive beside them (MCP-Flow). It gives up after idle
// without a sign of life from them.
type streamAwaiter interface {
	AwaitStreamsIdle(ctx context.Context, id jsonrpc.ID, idle time.Duration) error
}

// errMaxTime is the cause of a wait for execution streams that ran into
// the request's --max-time.
var errMaxTime = errors.New("the request reached its max time")

// awaitStreams waits until the streams of request id (a method call
// started at started) have finished, so that a run ends with every payload
// stored. A stream that failed fails the run; one that does not open or
// stalls for --timeout, or is still open at --max-time, times it out.
func (r *run) awaitStreams(ctx context.Context, method string, id jsonrpc.ID, started time.Time) error {
	a, ok := r.transport.(streamAwaiter)
	if !ok || id.IsNull() {
		return nil
	}
	ctx, cancel := context.WithDeadlineCause(ctx, started.Add(r.flags.maxTime), errMaxTime)
	defer cancel()
	err := a.AwaitStreamsIdle(ctx, id, r.flags.timeout)
	var wait *webtransport.StreamWaitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &wait) && wait.Idle > 0:
		return withExit(ExitTimeout, fmt.Errorf("%s (id %s) timed out waiting for its execution streams: %w", method, id, err))
	case errors.As(err, &wait) && errors.Is(wait.Err, errMaxTime):
		return withExit(ExitTimeout, fmt.Errorf("%s (id %s) timed out after its max time of %s, whatever the streams brought: %s",
			method, id, r.flags.maxTime, wait.Awaited()))
	}
	return connectionFailed(err)
}
