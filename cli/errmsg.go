package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// Message renders err as the one sentence mcpscope prints on stderr,
// without the "error: " prefix, safe to print: server text in it is shown
// escaped and bounded. A JSON-RPC error names the method, the server's
// message and the code with its standard name:
//
//	tools/call failed: Unknown tool (code -32602 Invalid params)
func Message(err error) string {
	var rpc *client.RPCError
	if errors.As(err, &rpc) && rpc.Err != nil {
		code := fmt.Sprintf("code %d", rpc.Err.Code)
		if name := mcp.ErrorNameIn(mcp.DialectMCP, rpc.Err, mcp.ErrorContext{Method: rpc.Method}); name != "" {
			code += " " + name
		}
		method := oneLine(rpc.Method)
		if method == "" {
			method = "the request"
		}
		return fmt.Sprintf("%s failed: %s (%s)", method, oneLine(rpc.Err.Message), code)
	}
	msg := safeLine(strings.TrimSpace(err.Error()))
	var long *stdio.LineTooLongError
	var tooLarge *flow.FrameTooLargeError
	if errors.As(err, &long) || errors.As(err, &tooLarge) {
		msg += " (raise the limit with --max-frame-size N)"
	}
	return msg
}

// printError writes "error: SENTENCE" on w. It is the error handler of the
// command tree, so every failure reaches the user the same way; an error
// the command explained itself (errExplained) is not written again.
func printError(w io.Writer, err error) {
	if errors.Is(err, errExplained) {
		return
	}
	fmt.Fprintf(w, "error: %s\n", Message(err))
}

// errExplained marks a usage error whose explanation the command wrote on
// stderr itself, in more than the one line printError writes.
var errExplained = errors.New("explained on stderr")

// startHint says, on w, the three ways to start mcpscope, for mcpscope run
// with no TARGET and no configured server to pick, and exits with
// ExitUsage.
func startHint(w io.Writer) error {
	fmt.Fprint(w, ""+
		"mcpscope demo              open the TUI on the embedded demo server\n"+
		"mcpscope URL               connect to a server at http[s]://, ws[s]:// or wt://\n"+
		"mcpscope -- CMD [ARGS…]    start a stdio server and connect to it\n")
	return &UsageError{Err: errExplained}
}
