package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/client/gatewaystream"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// DefaultChunkSize is the size of an uploaded binary chunk.
const DefaultChunkSize = gatewaystream.DefaultChunkSize

// streamFlags are the flags of `mcpscope stream` beside the run flags.
type streamFlags struct {
	upload    string
	text      bool
	meta      string
	chunkSize int
}

// newStreamCommand builds `mcpscope stream METHOD TARGET`.
func newStreamCommand() *cobra.Command {
	f, sf := &runFlags{}, &streamFlags{}
	cmd := &cobra.Command{
		Use:   "stream [flags] METHOD TARGET",
		Short: "Run one gateway stream over WebSocket: upload, download or both at once",
		Long: "Open a dedicated WebSocket connection to a gateway, send a start StreamMessage\n" +
			"whose meta names METHOD, upload --upload FILE (- for stdin) as binary chunks of\n" +
			"--chunk-size bytes, or with --text one JSON value per input line as text chunks, then\n" +
			"done with {totalChunks, totalBytes}. What the server streams back is saved under\n" +
			"--stream-out DIR (one file per stream, named by its GUID). The server's done summary is\n" +
			"printed as JSON; its error too, with exit status 1. A stream message that breaks the\n" +
			"protocol (an index gap, an unknown stream, a chunk after done) is reported and exits 5.",
		Example: "  mcpscope stream --upload big.bin system_binary_streams_in ws://127.0.0.1:8081/gateway\n" +
			"  mcpscope stream --stream-out out system_binary_streams_out ws://127.0.0.1:8081/gateway\n" +
			"  printf '1\\n\"two\"\\n' | mcpscope stream --text --upload - text_stream ws://127.0.0.1:8081/gateway",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			positional, target, err := f.target(cmd, args)
			if err != nil {
				return err
			}
			if len(positional) != 1 {
				return usagef("want METHOD TARGET: mcpscope stream [flags] METHOD TARGET")
			}
			if target.URL == nil || (target.URL.Scheme != "ws" && target.URL.Scheme != "wss") {
				return usagef("mcpscope stream needs a gateway's ws:// or wss:// URL")
			}
			if f.transport != "" && f.transport != "gateway" {
				return usagef("mcpscope stream speaks the gateway transport, not %s", f.transport)
			}
			target.Transport = "gateway"
			for _, fl := range []struct {
				name string
				set  bool
			}{
				{"--env", len(f.env) > 0}, {"--answers", f.answers != ""}, {"--root", len(f.roots) > 0},
				{"--protocol", f.protocol != ""}, {"--progress", f.progress},
			} {
				if fl.set {
					return usagef("%s does not apply to mcpscope stream: a gateway stream has no MCP session", fl.name)
				}
			}
			if err := f.validate(); err != nil {
				return err
			}
			if sf.chunkSize <= 0 {
				return usagef("--chunk-size must be positive, got %d", sf.chunkSize)
			}
			return runStream(cmd.Context(), f, sf, positional[0], target, streamsOf(cmd))
		},
	}
	cmd.Flags().StringVar(&sf.upload, "upload", "", "upload `FILE` (- for standard input) on the stream")
	cmd.Flags().BoolVar(&sf.text, "text", false, "upload text chunks: one JSON value per input line")
	cmd.Flags().StringVar(&sf.meta, "meta", "", "more start meta as a JSON `OBJECT` (name, mime, totalSize, …)")
	cmd.Flags().IntVar(&sf.chunkSize, "chunk-size", DefaultChunkSize, "bytes per uploaded binary chunk (`N`)")
	f.register(cmd.Flags()) // after --meta: the stream's own meta, not the requests'
	return cmd
}

// runStream connects, runs the stream and maps its end to an exit code.
func runStream(ctx context.Context, f *runFlags, sf *streamFlags, method string, target Target, io streams) error {
	defer io.diag.Close()
	var trace capture.Sink
	if f.trace {
		trace = newStreamTrace(io.diag)
	}
	_, tap, closeRec, err := f.recordingTap(target, io.diag)
	if err != nil {
		return err
	}
	defer closeRec() // after the connection's close
	topts := f.transportOptions(target)
	topts.Sink, topts.Warn = capture.Tee(trace, tap), io.diag.Println
	end, run, err := runGateway(ctx, f, sf, method, target, topts, io)
	if err != nil {
		return err
	}
	return finishStream(run, end, io)
}

// runGateway runs one gateway stream of method on a connection of its
// own built from topts, as `mcpscope stream` and the TUI's stream key do:
// the dial within --timeout, the run within --timeout of each sign of life
// and --max-time in all, the connection closed after.
func runGateway(ctx context.Context, f *runFlags, sf *streamFlags, method string, target Target, topts dial.Options, io streams) (*gatewaystream.End, *gatewaystream.Run, error) {
	opts := gatewaystream.Options{
		Upload: sf.upload, Stdin: io.in, Text: sf.text, ChunkSize: sf.chunkSize, Meta: sf.meta,
		StreamOut: f.streamOut, Timeout: f.timeout, MaxTime: f.maxTime,
		Println: io.diag.Println, Warnings: &warningCap{out: io.diag},
	}
	meta, err := gatewaystream.StartMeta(method, opts)
	if err != nil {
		return nil, nil, streamFailure(err)
	}
	run := gatewaystream.New(opts)
	topts.StreamOut = "" // the run saves the downloads itself
	if topts, err = withAuth(f, target, topts, io.diag); err != nil {
		return nil, nil, err
	}
	built, err := dial.NewWS(target.endpoint(), topts)
	if err != nil {
		return nil, nil, err
	}
	tr, ok := built.(*ws.Transport)
	if !ok {
		return nil, nil, usagef("a gateway stream needs the gateway transport")
	}
	tr.OnStream(run.Event)
	startCtx, cancel := client.StartContext(ctx, f.timeout, f.maxTime)
	err = tr.Start(startCtx, func(*jsonrpc.Message) {})
	cancel()
	if err != nil {
		return nil, nil, connectionFailed(fmt.Errorf("could not connect to %s: %w", target, err))
	}
	defer tr.Close()
	end, err := run.Run(ctx, tr, meta)
	return end, run, streamFailure(err)
}

// streamFailure gives a failed run its exit code: a usage error for bad
// input, a timeout's, or the connection's.
func streamFailure(err error) error {
	var f *gatewaystream.Failure
	if !errors.As(err, &f) {
		return err
	}
	switch f.Kind {
	case gatewaystream.Input:
		return &UsageError{Err: f.Err}
	case gatewaystream.Timeout:
		return withExit(ExitTimeout, f.Err)
	}
	return connectionFailed(f.Err)
}

// finishStream prints the server's answer and maps it to the exit status.
func finishStream(run *gatewaystream.Run, end *gatewaystream.End, io streams) error {
	run.CloseDownloads()
	if end.Err != nil {
		raw, _ := json.Marshal(end.Err)
		if err := writeJSON(io.out, raw, io.pretty); err != nil {
			return err
		}
		return withExit(ExitRPCError, fmt.Errorf("the stream failed: %d %s", end.Err.Code, termtext.Line(end.Err.Message)))
	}
	summary := end.Summary
	if len(summary) == 0 || string(summary) == "null" {
		summary = json.RawMessage(`{}`)
	}
	if err := writeJSON(io.out, summary, io.pretty); err != nil {
		return err
	}
	if n := run.Problems(); n > 0 {
		return withExit(ExitProtocol, fmt.Errorf("%w: %s the checks (see the warnings)", gatewaystream.ErrProblem, plural.Count(n, "message failed", "messages failed")))
	}
	return nil
}
