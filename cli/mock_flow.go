package cli

import (
	"context"
	"errors"
	"io"

	"github.com/mcpscope/mcpscope/recordings/mock"
)

// serveMockFlow serves rec over MCP-Flow (WebTransport) on addr until ctx
// ends, printing how to connect on errw.
func serveMockFlow(ctx context.Context, rec *mock.Recording, addr string, errw io.Writer) error {
	return withExit(ExitUsage, errors.New("mock --listen: MCP-Flow is not built yet; use stdio, --http or --ws"))
}
