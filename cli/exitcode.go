package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// Exit codes of mcpscope, pinned so that scripts can rely on them.
const (
	ExitOK         = 0 // the request succeeded
	ExitRPCError   = 1 // the server answered with a JSON-RPC error, a tool's result is a failure (client.ToolFailure), or a replay's answers differ
	ExitUsage      = 2 // bad command line, bad PARAMS_JSON, bad or exhausted answers file
	ExitConnection = 3 // the transport failed or the server went away
	ExitTimeout    = 4 // a request got no answer in time
	ExitProtocol   = 5 // the server broke the protocol
	ExitLint       = 6 // lint found a finding of error severity
	// ExitInterrupted is the shell's code for a run ended by SIGINT (128+2).
	ExitInterrupted = 130 // the user interrupted the run (Ctrl-C)
)

// UsageError is a mistake on the command line or in a file the command line
// names. It exits with ExitUsage.
type UsageError struct {
	Err error
}

func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying reason.
func (e *UsageError) Unwrap() error { return e.Err }

// walkExit is the exit code of each kind of answers.WalkFailure.
var walkExit = map[answers.WalkFailureKind]int{
	answers.WalkConnection: ExitConnection,
	answers.WalkTimeout:    ExitTimeout,
	answers.WalkInput:      ExitUsage,
}

// isUsage reports whether err is a usage error: a UsageError, options
// that do not fit the transport, an answer that cannot be sent, or a
// question the answers file has no answer left for.
func isUsage(err error) bool {
	var walk *answers.WalkFailure
	return errors.As(err, new(*UsageError)) || errors.As(err, new(*answers.UnansweredError)) || errors.As(err, new(*dial.OptionError)) ||
		errors.As(err, &walk) && walk.Kind == answers.WalkInput
}

// usagef builds a UsageError from a format.
func usagef(format string, a ...any) error {
	return &UsageError{Err: fmt.Errorf(format, a...)}
}

// exitError carries an explicit exit code for failures that no typed error
// of the engine describes (a transport that could not be built, say).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withExit attaches an exit code to err.
func withExit(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// ExitCode maps an error returned by a command to mcpscope's exit code.
// Errors the command line parser raises on its own (an unknown flag, a
// missing argument) are usage errors.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var (
		ee   *exitError
		ue   *UsageError
		ua   *answers.UnansweredError
		oe   *dial.OptionError
		walk *answers.WalkFailure
		rpc  *client.RPCError
		tmo  *client.TimeoutError
		prot *client.ProtocolError
		conn *client.ConnectionError
		xchg *client.ExchangeError
		tool *client.InvalidToolHeadersError
		fail *client.ToolFailure
		diff *against.MismatchError
	)
	switch {
	case errors.Is(err, ErrInterrupted):
		return ExitInterrupted
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &walk):
		return walkExit[walk.Kind]
	case errors.As(err, &ue), errors.As(err, &ua), errors.As(err, &oe):
		return ExitUsage
	case errors.As(err, &rpc), errors.As(err, &fail), errors.As(err, &diff):
		return ExitRPCError
	case errors.As(err, &tmo):
		return ExitTimeout
	case errors.As(err, &prot), errors.As(err, &tool):
		return ExitProtocol
	case timedOut(err):
		return ExitTimeout
	case errors.As(err, &conn), errors.As(err, &xchg), errors.Is(err, client.ErrClosed):
		return ExitConnection
	}
	return ExitUsage
}

// timedOut reports whether err is a time limit running out: the run's
// deadline (--timeout, --max-time) or one of the network's (a dial, a TLS
// or QUIC handshake, a WebSocket upgrade), however deep a transport or
// connection error wraps it. A server that stopped reading what mcpscope
// sends is a connection failure, though a write deadline found it.
func timedOut(err error) bool {
	if errors.Is(err, client.ErrStoppedReading) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, new(*client.StartTimeoutError)) {
		return true
	}
	var limit interface{ Timeout() bool }
	return errors.As(err, &limit) && limit.Timeout()
}

// connectionFailed gives err, the failure of a connection or of what was
// sent on it, its exit code: a timeout's when a time limit ran out (see
// timedOut), the connection's otherwise.
func connectionFailed(err error) error {
	if timedOut(err) {
		return withExit(ExitTimeout, err)
	}
	return withExit(ExitConnection, err)
}
