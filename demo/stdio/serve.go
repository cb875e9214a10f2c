package stdio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// DefaultMaxLineSize bounds one incoming line (seed 001: 1 MB requests).
const DefaultMaxLineSize = 1 << 20

// ErrDropped is returned by Serve after misbehave mode "drop".
var ErrDropped = errors.New("the demo server dropped the connection on purpose (misbehave drop)")

// Options configure Serve. The zero value is usable.
type Options struct {
	MaxLineSize int          // longest accepted line in bytes (default DefaultMaxLineSize)
	Logger      *slog.Logger // diagnostics; never stdout (nil: discarded)
}

// Serve answers line-delimited JSON-RPC from in on out until in ends, ctx
// is done or a misbehave drop. Running calls are cancelled on the way out.
func Serve(ctx context.Context, srv *demo.Server, in io.Reader, out io.Writer, opts Options) error {
	if opts.MaxLineSize <= 0 {
		opts.MaxLineSize = DefaultMaxLineSize
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	o := newOutbound(out)
	conn := srv.NewConn(o)
	defer conn.Close()

	lines := make(chan lineResult)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(bufio.NewReaderSize(in, 64<<10), opts.MaxLineSize, lines, stop)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-o.dropped:
			return ErrDropped
		case lr := <-lines:
			switch {
			case lr.err == io.EOF:
				return drain(ctx, conn, o)
			case lr.err != nil:
				return fmt.Errorf("reading standard input: %w", lr.err)
			case lr.tooLong:
				opts.Logger.Warn("line too long", "bytes", lr.size)
				o.sendError(jsonrpc.ID{}, mcp.CodeInvalidRequest, fmt.Sprintf("line of %d bytes exceeds the limit of %d bytes", lr.size, opts.MaxLineSize))
			default:
				handleLine(conn, o, lr.line, opts.Logger)
			}
		}
	}
}

// drain lets the running calls answer after the input ended, unless ctx
// ends or a drop comes first.
func drain(ctx context.Context, conn *demo.Conn, o *outbound) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-o.dropped:
			cancel()
		case <-ctx.Done():
		}
	}()
	_ = conn.Drain(ctx)
	select {
	case <-o.dropped:
		return ErrDropped
	default:
		return nil
	}
}

// handleLine decodes one line and hands its message to the connection.
func handleLine(conn *demo.Conn, o *outbound, line []byte, log *slog.Logger) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	m, refusal, err := demo.DecodeClientMessage(line, "line")
	if err != nil {
		log.Debug("undecodable line", "err", err)
	}
	if refusal != nil {
		_ = o.Send(refusal)
		return
	}
	conn.Handle(m)
}

// lineResult is one line read, or why reading stopped.
type lineResult struct {
	line    []byte
	size    int64
	tooLong bool
	err     error
}

// readLines reads lines of at most max bytes; a longer line is skipped to
// its end and reported as tooLong, without holding more than max bytes.
func readLines(r *bufio.Reader, max int, out chan<- lineResult, stop <-chan struct{}) {
	for {
		var line []byte
		var size int64
		var err error
		for {
			var part []byte
			part, err = r.ReadSlice('\n')
			size += int64(len(part))
			if size <= int64(max) {
				line = append(line, part...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		res := lineResult{line: line, size: size, tooLong: size > int64(max)}
		if err != nil && (err != io.EOF || size == 0) {
			res = lineResult{err: err}
		}
		select {
		case out <- res:
		case <-stop:
			return
		}
		if res.err != nil {
			return
		}
	}
}
