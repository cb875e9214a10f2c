package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/mcpscope/mcpscope/recordings/mock"
	"github.com/mcpscope/mcpscope/recordings/mock/flowserve"
)

// flowUnits is what a recording may tell of the MCP-Flow execution
// streams and datagrams it holds, which the mock does not replay.
type flowUnits interface {
	FlowUnits() (streams, datagrams int)
}

// serveMockFlow serves rec over MCP-Flow (WebTransport) on addr until ctx
// is done, and prints on errw the URL, the certificate's hash and the
// command that connects, as mcpscope serve does.
func serveMockFlow(ctx context.Context, rec *mock.Recording, addr string, errw io.Writer) error {
	return serveFlowAnswers(ctx, func() flowserve.Answerer { return rec.NewConn() }, rec, addr, errw)
}

// serveFlowAnswers serves a session of newConn per MCP-Flow session; rec,
// when it tells of streams and datagrams, has them named as not replayed.
func serveFlowAnswers(ctx context.Context, newConn func() flowserve.Answerer, rec any, addr string, errw io.Writer) error {
	if _, _, err := net.SplitHostPort(addr); addr != "" && err != nil {
		return usagef("--listen %s: %w", quote(addr), err)
	}
	log := slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := flowserve.New(flowserve.Config{Listen: addr, NewConn: newConn, Notes: errw, Logger: log})
	if err != nil {
		return usagef("%w", err)
	}
	if err := srv.Listen(); err != nil {
		return withExit(ExitConnection, err)
	}
	fmt.Fprintf(errw, "mcpscope mock: MCP-Flow over WebTransport at %s\n", srv.URL())
	if u, ok := rec.(flowUnits); ok {
		if streams, datagrams := u.FlowUnits(); streams+datagrams > 0 {
			fmt.Fprintf(errw, "note: the recording holds %d execution streams and %d datagrams; the mock replays the control stream only\n", streams, datagrams)
		}
	}
	fmt.Fprintf(errw, "certificate (self-signed, generated, valid until %s): %s\n", srv.CertNotAfter().UTC().Format(time.RFC3339), srv.CertHash())
	fmt.Fprintf(errw, "connect with:\n  %s\n", srv.ConnectCommand())
	if err := srv.Serve(ctx); err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}
