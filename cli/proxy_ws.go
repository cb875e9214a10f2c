package cli

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/mcpscope/mcpscope/proxy/wsrelay"
)

// ws relays the WebSocket connections of hosts on --listen to target
// (see proxy.go), every path to the same path upstream.
func (r *proxyRun) ws(ctx context.Context, target string) error {
	var hashes []string
	if r.f.certHash != "" {
		hashes = strings.Split(r.f.certHash, ",")
	}
	relay, err := wsrelay.New(r.sess, wsrelay.Options{
		Upstream: target, Gateway: r.f.transport == "gateway",
		CertHashes: hashes, Insecure: r.f.insecure, NoRedact: r.f.noRedact,
	})
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", r.f.listen)
	if err != nil {
		return withExit(ExitConnection, fmt.Errorf("listening on %s: %w", r.f.listen, err))
	}
	fmt.Fprintf(r.cmd.ErrOrStderr(), "mcpscope proxy: listening on %s for %s\n", relay.LocalURL(ln.Addr()), redactURL(target))
	return relay.Serve(ctx, ln)
}
