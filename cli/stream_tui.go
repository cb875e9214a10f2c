package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/transports/ws"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// gatewayStreamer runs the TUI's gateway streams (the explorer's stream
// key) as `mcpscope stream` runs one: each on a WebSocket connection of
// its own, named "ws stream N" in the capture, with the run's flags
// (timeouts, TLS, headers, --stream-out). Nothing is written to the
// terminal: what a headless run prints is the answer here.
func gatewayStreamer(f *runFlags, target Target, sink capture.Sink) screen.StreamFunc {
	var n atomic.Int64
	return func(ctx context.Context, method, upload string) (json.RawMessage, error) {
		if upload == "-" {
			return nil, fmt.Errorf("the TUI uploads a file, not standard input: give a path")
		}
		sf := &streamFlags{upload: upload, chunkSize: DefaultChunkSize}
		meta, err := startMeta(method, sf)
		if err != nil {
			return nil, err
		}
		topts := f.transportOptions()
		topts.Sink, topts.StreamOut, topts.Conn = sink, "", fmt.Sprintf("ws stream %d", n.Add(1))
		built, err := newWSTransport(target, topts)
		if err != nil {
			return nil, err
		}
		tr := built.(*ws.Transport)
		quiet := streams{in: strings.NewReader(""), out: io.Discard, diag: &lineWriter{w: io.Discard}}
		run := newGatewayRun(f, sf, quiet)
		tr.OnStream(run.event)
		startCtx, cancel := context.WithTimeout(ctx, min(f.timeout, f.maxTime))
		err = tr.Start(startCtx, func(*proto.Message) {})
		cancel()
		if err != nil {
			return nil, fmt.Errorf("could not connect to %s: %w", target, err)
		}
		defer tr.Close()
		end, err := run.run(ctx, tr, meta)
		switch {
		case err != nil:
			return nil, err
		case end.err != nil:
			return nil, &client.RPCError{Method: "stream " + method, Err: end.err}
		case run.problems > 0:
			return end.summary, fmt.Errorf("%w: %d message(s) failed the checks (see the traffic)", errStreamProblem, run.problems)
		}
		return end.summary, nil
	}
}
