package demo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Modes of misbehave that flood MCP-Flow control messages the client's
// transport acts on, to test that it stays within its limits.
const (
	// ModeStreamErrorFlood sends $/streamError for the call's own request,
	// naming streams 1, 2, … that were never opened, then answers.
	ModeStreamErrorFlood = "streamerror_flood"
	// ModeShutdownFlood opens an execution stream, so that the client's
	// drain waits for it, sends $/shutdown over and over, then ends the
	// stream and waits for the client to close the session.
	ModeShutdownFlood = "shutdown_flood"
)

// shutdownFloodWait bounds how long shutdown_flood waits, its stream
// ended, for the client to close the session before it answers.
const shutdownFloodWait = 30 * time.Second

// controlFlood sends as many $/streamError or $/shutdown as the flood
// arguments say, as fast as the transport takes them, then answers with how
// many went out.
func controlFlood(ctx context.Context, c *Call, mode string, a floodArgs) (*ToolResult, error) {
	count, _, err := a.limits()
	if err != nil {
		return nil, err
	}
	if _, err := c.saboteur(mode); err != nil {
		return nil, err
	}
	id, ok := c.ID.Int()
	if !ok || id < 0 || id > 1<<32-1 {
		return nil, invalidParams("misbehave mode %q needs an MCP-Flow request id, not %s", mode, c.ID)
	}
	closeStream := func() error { return nil }
	if mode == ModeShutdownFlood {
		st, err := c.Emit.OpenStream()
		if err != nil {
			return nil, err
		}
		closeStream = sync.OnceValue(st.Close)
		defer closeStream()
		if _, err := st.Write([]byte("the client drains this stream while $/shutdown floods in\n")); err != nil {
			return nil, err
		}
		// Give the header a moment to arrive before the first $/shutdown.
		if err := sleep(ctx, streamErrorPause); err != nil {
			return nil, err
		}
	}
	sent := 0
	for ; sent < count && ctx.Err() == nil; sent++ {
		var m *jsonrpc.Message
		if mode == ModeShutdownFlood {
			m, err = jsonrpc.NewNotification(flow.MethodFlowShutdown, nil)
		} else {
			m, err = jsonrpc.NewNotification(flow.MethodFlowStreamError, flow.FlowStreamErrorParams{
				RequestID: uint32(id), StreamTag: uint32(sent + 1), Error: "misbehave: a stream that was never opened"})
		}
		if err == nil {
			err = c.conn.out.Send(m)
		}
		if err != nil {
			return nil, rpcError(mcp.CodeInternalError, nil, "the flood stopped after %d of %d messages: %v", sent, count, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if mode == ModeShutdownFlood {
		// Ending the stream ends the client's drain; the client then
		// closes the session, which ends ctx. The answer is for a client
		// that never does.
		_ = closeStream()
		if err := sleep(ctx, shutdownFloodWait); err != nil {
			return nil, err
		}
	}
	method := flow.MethodFlowStreamError
	if mode == ModeShutdownFlood {
		method = flow.MethodFlowShutdown
	}
	return TextResult(fmt.Sprintf("flood sent: %d %s", sent, method)), nil
}
