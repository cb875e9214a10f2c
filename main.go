// Command mcpscope is a terminal client and debugger for Model Context
// Protocol servers.
package main

import (
	"context"
	"os"

	"github.com/mcpscope/mcpscope/cli"
)

func main() {
	ctx, stop := cli.InterruptContext(context.Background())
	code := cli.Execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
