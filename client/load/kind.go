package load

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
)

// The kinds of error Kind names besides "rpc CODE" and "http STATUS".
const (
	KindToolError  = "tool isError"        // a tools/call result with isError: true
	KindToolOutput = "tool output"         // structuredContent missing or failing the tool's outputSchema
	KindTimeout    = "timeout"             // no answer within the call's time limits
	KindConnection = "connection"          // the transport failed or the server went away
	KindProtocol   = "protocol"            // the answer broke the protocol
	KindExchange   = "exchange"            // the transport could not carry the answer (no HTTP status)
	KindCanceled   = "canceled"            // the run was stopped while the call was in flight
	KindUnanswered = "question unanswered" // the server asked a question no answer covers
	KindOther      = "other"               // anything else, or a kind past the ones told apart
	rpcPrefix      = "rpc "                // + the JSON-RPC error code: "rpc -32603"
	httpPrefix     = "http "               // + the HTTP status of a failed exchange: "http 503"
)

// Kind names the kind of a call's failure, "" for nil: "rpc -32603" for a
// JSON-RPC error answer, "tool isError", "tool output", "timeout",
// "connection" (a server that cannot be reached any more, over HTTP too),
// "protocol", "http 503" or "exchange", "canceled", "question unanswered",
// "other".
func Kind(err error) string {
	if err == nil {
		return ""
	}
	var (
		rpc  *client.RPCError
		tool *client.ToolFailure
		tmo  *client.TimeoutError
		conn *client.ConnectionError
		prot *client.ProtocolError
		xchg *client.ExchangeError
		canc *client.CancelledError
		unan *answers.UnansweredError
	)
	switch {
	case errors.As(err, &unan):
		return KindUnanswered
	case errors.As(err, &rpc) && rpc.Err != nil:
		return rpcPrefix + strconv.Itoa(rpc.Err.Code)
	case errors.As(err, &tool):
		if tool.Kind == client.ToolIsError {
			return KindToolError
		}
		return KindToolOutput
	case errors.As(err, &tmo):
		return KindTimeout
	case errors.As(err, &prot):
		return KindProtocol
	case errors.As(err, &conn), errors.Is(err, client.ErrClosed):
		return KindConnection
	case errors.As(err, &xchg):
		if xchg.Status != 0 {
			return httpPrefix + strconv.Itoa(xchg.Status)
		}
		if unreachable(xchg.Err) {
			return KindConnection
		}
		return KindExchange
	case errors.As(err, &canc), errors.Is(err, context.Canceled):
		return KindCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	}
	return KindOther
}

// unreachable reports whether err says the server could not be reached
// at all (a refused or reset connection, a failed dial): the server is
// gone, not one exchange broken.
func unreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// IsAnswer reports whether a call that ended as kind got its answer from
// the server: a success, a JSON-RPC error, a tool result that is a
// failure. Only those calls have a latency.
func IsAnswer(kind string) bool {
	return kind == "" || kind == KindToolError || kind == KindToolOutput || strings.HasPrefix(kind, rpcPrefix)
}
