package cli

import (
	"context"

	"github.com/mcpscope/mcpscope/proxy/httprelay"
)

// bridge is the stdio bridge: the host launches mcpscope proxy URL and
// speaks stdio to it; the proxy speaks Streamable HTTP (or legacy
// HTTP+SSE with --transport sse) to the server at target.
func (r *proxyRun) bridge(ctx context.Context, target string) error {
	up, header, client, err := r.upstream(target)
	if err != nil {
		return err
	}
	b, err := httprelay.NewBridge(httprelay.BridgeOptions{
		Session: r.sess, URL: up, Legacy: r.f.transport == "sse", Client: client, Header: header,
		NoRedact: r.f.noRedact, Stdin: r.cmd.InOrStdin(), Stdout: r.cmd.OutOrStdout(),
	})
	if err != nil {
		return err
	}
	if err := b.Run(ctx); err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}
