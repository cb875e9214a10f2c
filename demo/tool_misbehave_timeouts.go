package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/flow"
)

// Misbehave modes that test whether a client keeps its time limits.
const (
	// ModeStopReading answers, then stops reading the control stream: the
	// server grants no more flow-control credit, so a large request that
	// follows can never be sent whole (MCP-Flow).
	ModeStopReading = "stop_reading"
	// ModeStreamNeverOpened answers with a ref/stream item whose stream is
	// never opened.
	ModeStreamNeverOpened = "stream_never_opened"
	// ModeStreamStall answers with a ref/stream item, writes a little of the
	// stream, then stalls it without ever ending it.
	ModeStreamStall = "stream_stall"
	// ModeProgressForever sends progress every ProgressForeverInterval and
	// never answers.
	ModeProgressForever = "progress_forever"
)

// timeoutModes are the misbehave modes of this file, in MisbehaveModes.
var timeoutModes = []string{ModeStopReading, ModeStreamNeverOpened, ModeStreamStall, ModeProgressForever}

// Sizes and pace of the time-limit modes.
const (
	// ProgressForeverInterval is the pace of progress_forever.
	ProgressForeverInterval = time.Second
	// StreamStallPayload is what stream_stall writes before it stalls.
	StreamStallPayload = 4096
)

// runTimeoutMode runs one of the time-limit modes, or returns nil when
// mode is not one of them. ModeStopReading is a Saboteur's.
func runTimeoutMode(mode string) ToolHandler {
	switch mode {
	case ModeStreamNeverOpened:
		return streamNeverOpened
	case ModeStreamStall:
		return streamStall
	case ModeProgressForever:
		return progressForever
	}
	return nil
}

// streamNeverOpened reserves a stream, answers with a reference to it and
// never writes it: nothing of it reaches the wire. It holds the stream
// until the call ends.
func streamNeverOpened(ctx context.Context, c *Call) (*ToolResult, error) {
	st, err := openStreamFor(c, ModeStreamNeverOpened)
	if err != nil {
		return nil, err
	}
	return holdAfter(ctx, c, st, fmt.Sprintf("stream %d is referred to and will never be opened", st.Tag()))
}

// streamStall opens a stream, writes StreamStallPayload bytes, answers
// with a reference to it, then neither writes nor ends it until the call
// ends.
func streamStall(ctx context.Context, c *Call) (*ToolResult, error) {
	st, err := openStreamWith(c, ModeStreamStall, StreamStallPayload)
	if err != nil {
		return nil, err
	}
	return holdAfter(ctx, c, st, fmt.Sprintf("stream %d stalls after %d bytes and never ends", st.Tag(), StreamStallPayload))
}

// openStreamFor reserves an execution stream for a mode that needs one.
func openStreamFor(c *Call, mode string) (ExecStream, error) {
	st, err := c.Emit.OpenStream()
	if errors.Is(err, ErrNoStreams) {
		return nil, invalidParams("misbehave mode %q needs execution streams (MCP-Flow)", mode)
	}
	return st, err
}

// openStreamWith opens an execution stream for mode and writes size bytes
// of generated data on it (seed 0).
func openStreamWith(c *Call, mode string, size int) (ExecStream, error) {
	st, err := openStreamFor(c, mode)
	if err != nil {
		return nil, err
	}
	chunk := make([]byte, size)
	for i := range chunk {
		chunk[i] = GeneratedByte(int64(i), 0)
	}
	if _, err := st.Write(chunk); err != nil {
		st.Abort(err.Error())
		return nil, err
	}
	return st, nil
}

// holdAfter answers with a reference to st and text, then keeps st as it
// is until the call ends (the client cancels it or goes).
func holdAfter(ctx context.Context, c *Call, st ExecStream, text string) (*ToolResult, error) {
	err := c.Respond(&ToolResult{Content: []any{
		flow.StreamRef{Type: flow.ContentStreamRef, StreamTag: st.Tag(), MimeType: "application/octet-stream"},
		Text(text),
	}})
	if err != nil {
		st.Abort(err.Error())
		return nil, err
	}
	<-ctx.Done()
	return nil, ctx.Err() // the call's end resets the stream
}

// progressForever reports progress every ProgressForeverInterval until the
// call ends, and never answers.
func progressForever(ctx context.Context, c *Call) (*ToolResult, error) {
	tick := time.NewTicker(ProgressForeverInterval)
	defer tick.Stop()
	for i := 1; ; i++ {
		if err := c.Emit.Progress(float64(i), 0, fmt.Sprintf("still working (%d), and never done", i)); err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}
