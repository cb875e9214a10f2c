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
	"github.com/mcpscope/mcpscope/client/gatewaystream"
	"github.com/mcpscope/mcpscope/internal/app/plural"
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
		topts := f.transportOptions(target)
		topts.Sink, topts.Conn = sink, fmt.Sprintf("ws stream %d", n.Add(1))
		quiet := streams{in: strings.NewReader(""), out: io.Discard, diag: &lineWriter{w: io.Discard}}
		end, run, err := runGateway(ctx, f, sf, method, target, topts, quiet)
		switch {
		case err != nil:
			return nil, err
		case end.Err != nil:
			return nil, &client.RPCError{Method: "stream " + method, Err: end.Err}
		case run.Problems() > 0:
			return end.Summary, fmt.Errorf("%w: %s the checks (see the traffic)", gatewaystream.ErrProblem, plural.Count(run.Problems(), "message failed", "messages failed"))
		}
		return end.Summary, nil
	}
}
