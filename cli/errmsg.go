package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
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
		if name := proto.ErrorName(methodDialect(rpc.Method), rpc.Err.Code); name != "" {
			code += " " + name
		}
		method := oneLine(rpc.Method)
		if method == "" {
			method = "the request"
		}
		return fmt.Sprintf("%s failed: %s (%s)", method, oneLine(rpc.Err.Message), code)
	}
	return safeLine(strings.TrimSpace(err.Error()))
}

// methodDialect is the dialect that names the error codes of method: the
// interaction.* methods of seed 002 have codes of their own.
func methodDialect(method string) proto.Dialect {
	if strings.HasPrefix(method, "interaction.") {
		return proto.DialectInteraction
	}
	return proto.DialectMCP
}

// printError writes "error: SENTENCE" on w. It is the error handler of the
// command tree, so every failure reaches the user the same way.
func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "error: %s\n", Message(err))
}
