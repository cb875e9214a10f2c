package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpscope/mcpscope/proxy/stdiorelay"
)

// stdio relays the session between the host on the proxy's own standard
// streams and the server argv runs (see proxy.go). The proxy exits with
// the server's status, 0 included.
func (r *proxyRun) stdio(ctx context.Context, argv []string) error {
	// A host that stops reading must not kill the proxy with SIGPIPE: the
	// write fails, the proxy stops the server and exits with its status.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)

	exit, err := stdiorelay.Run(ctx, r.sess, stdiorelay.Config{
		Argv: argv, HostIn: r.cmd.InOrStdin(), HostOut: r.cmd.OutOrStdout(), HostErr: r.cmd.ErrOrStderr(),
	})
	if err != nil {
		return withExit(ExitConnection, err)
	}
	if exit.Status == 0 {
		return nil
	}
	msg := fmt.Sprintf("the server exited with status %d", exit.Status)
	if exit.Signal != "" {
		msg = fmt.Sprintf("the server was ended by %s", exit.Signal)
	}
	fmt.Fprintf(r.cmd.ErrOrStderr(), "mcpscope proxy: %s\n", msg)
	return &exitError{code: exit.Status, err: fmt.Errorf("%s: %w", msg, errExplained)}
}
