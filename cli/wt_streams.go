package cli

import (
	"context"

	"github.com/mcpscope/mcpscope/proto"
)

// streamAwaiter is a transport whose results can refer to execution
// streams that arrive beside them (MCP-Flow).
type streamAwaiter interface {
	AwaitStreams(ctx context.Context, id proto.ID) error
}

// awaitStreams waits until the streams of request id have finished, so
// that a run ends with every payload stored. A stream that failed fails
// the run.
func (r *run) awaitStreams(ctx context.Context, id proto.ID) error {
	a, ok := r.transport.(streamAwaiter)
	if !ok || id.IsNull() {
		return nil
	}
	if err := a.AwaitStreams(ctx, id); err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}
