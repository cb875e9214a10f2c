// Command mcpscope is a terminal client and debugger for Model Context
// Protocol servers.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/mcpscope/mcpscope/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
