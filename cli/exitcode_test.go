package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

func TestExitCode(t *testing.T) {
	rpc := &client.RPCError{Method: "tools/call", Err: &jsonrpc.Error{Code: -32602, Message: "Unknown tool"}}
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"rpc", rpc, ExitRPCError},
		{"wrapped rpc", fmt.Errorf("call: %w", rpc), ExitRPCError},
		{"usage", usagef("missing METHOD"), ExitUsage},
		{"cobra's own error", errors.New(`unknown flag: --nope`), ExitUsage},
		{"connection", &client.ConnectionError{Err: &stdio.ExitError{ExitCode: 1}}, ExitConnection},
		{"closed", client.ErrClosed, ExitConnection},
		{"connect failure", fmt.Errorf("could not connect to x: %w", &client.ConnectionError{Err: errors.New("boom")}), ExitConnection},
		{"timeout", &client.TimeoutError{Method: "tools/call", ID: jsonrpc.IntID(2), After: "1s"}, ExitTimeout},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), ExitTimeout},
		{"protocol", &client.ProtocolError{Msg: "bad version"}, ExitProtocol},
		{"explicit", withExit(ExitConnection, errors.New("transport wt is not available yet")), ExitConnection},
		{"network timeout under a connection error", &client.ConnectionError{Err: fmt.Errorf("dial: %w", os.ErrDeadlineExceeded)}, ExitTimeout},
		{"network timeout in an exchange", &client.ExchangeError{Err: &net.DNSError{Err: "i/o timeout", IsTimeout: true}}, ExitTimeout},
		{"connection failed on a timeout", connectionFailed(fmt.Errorf("upgrade: %w", context.DeadlineExceeded)), ExitTimeout},
		{"connection failed", connectionFailed(errors.New("refused")), ExitConnection},
		{"server stopped reading", &client.ConnectionError{Err: errors.Join(context.DeadlineExceeded, client.ErrStoppedReading)}, ExitConnection},
		{"tool result that is a failure", &client.ToolFailure{Tool: "read_file", Kind: client.ToolIsError}, ExitRPCError},
		{"wrapped tool failure", fmt.Errorf("step: %w", &client.ToolFailure{Tool: "x", Kind: client.ToolOutputInvalid}), ExitRPCError},
		{"wrong id in place of the answer", &client.ProtocolError{Msg: "x", Err: &client.ExchangeError{Err: errors.New("no answer")}}, ExitProtocol},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("%s: ExitCode = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestMessageNamesTheRPCError(t *testing.T) {
	rpc := &client.RPCError{Method: "tools/call", Err: &jsonrpc.Error{Code: -32602, Message: "Unknown tool"}}
	if got, want := Message(fmt.Errorf("x: %w", rpc)), "tools/call failed: Unknown tool (code -32602 Invalid params)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	refused := &client.RPCError{Method: mcp.MethodCapabilities, Err: &jsonrpc.Error{Code: mcp.CodeNotInteractive, Message: "no"}}
	if got, want := Message(refused), "capabilities failed: no (code -32007 "+mcp.ErrorName(mcp.DialectInteraction, mcp.CodeNotInteractive)+")"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	odd := &client.RPCError{Method: "x", Err: &jsonrpc.Error{Code: 7, Message: "strange"}}
	if got, want := Message(odd), "x failed: strange (code 7)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRunFailurePrefersTheCause(t *testing.T) {
	ctx, stop := context.WithCancelCause(context.Background())
	if err := runFailure(ctx, errors.New("write on closed pipe")); ExitCode(err) != ExitConnection {
		t.Errorf("untyped failure after connect: exit %d", ExitCode(err))
	}
	if err := runFailure(ctx, &client.TimeoutError{Method: "m"}); ExitCode(err) != ExitTimeout {
		t.Errorf("typed failure: exit %d", ExitCode(err))
	}
	cause := usagef("no answer left for elicitation/create %q", "q")
	stop(cause)
	if err := runFailure(ctx, context.Canceled); err != cause {
		t.Errorf("got %v, want the cause", err)
	}
	if err := runFailure(ctx, nil); err != cause {
		t.Errorf("a call that got through despite an unanswered question: got %v, want the cause", err)
	}
}
