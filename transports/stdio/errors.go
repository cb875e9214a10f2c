package stdio

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// ExitError is what Err returns when the server went away while the session
// was open: how it ended and the last lines it wrote to stderr.
type ExitError struct {
	ExitCode int      // exit status, or -1 when a signal ended it
	Signal   string   // the signal that ended it ("SIGKILL"), or ""
	Stderr   []string // the last lines of stderr, oldest first
	Err      error    // what else went wrong (stdout closed early, a read error), or nil
	// BeforeInitialize says the server went before it answered initialize:
	// the session never opened (see BeforeInitialize).
	BeforeInitialize bool
}

// BeforeInitialize words err for a connection that failed during the
// handshake: when err holds an *ExitError it returns a copy that says the
// server went before answering initialize, not while the session was open.
// Any other err is returned as it is.
func BeforeInitialize(err error) error {
	var e *ExitError
	if !errors.As(err, &e) {
		return err
	}
	early := *e
	early.BeforeInitialize = true
	return &early
}

// errStdoutClosed says the server closed its stdout while still running.
var errStdoutClosed = errors.New("it had closed its stdout, so mcpscope stopped it")

// maxTailShown caps each stderr line quoted in ExitError.Error.
const maxTailShown = 256

func (e *ExitError) Error() string {
	var b strings.Builder
	when := "while the session was open"
	if e.BeforeInitialize {
		when = "before answering initialize"
	}
	if e.Signal != "" {
		fmt.Fprintf(&b, "server was killed by %s %s", e.Signal, when)
	} else {
		fmt.Fprintf(&b, "server exited with status %d %s", e.ExitCode, when)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, " (%v)", e.Err)
	}
	if len(e.Stderr) == 0 {
		b.WriteString("; it wrote nothing to stderr")
		return b.String()
	}
	b.WriteString("; last stderr: ")
	for i, line := range e.Stderr {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(termtext.QuoteMax(line, maxTailShown))
	}
	return b.String()
}

// Unwrap returns the additional cause, if any.
func (e *ExitError) Unwrap() error { return e.Err }

// LineTooLongError marks a line over the frame limit. The frame keeps only
// the head of the line; the rest was counted and dropped.
type LineTooLongError struct {
	Size int64 // true length of the line, its LF included
	Max  int   // the limit it broke
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("server wrote a line of %d bytes, over the %d-byte limit; only its head is kept", e.Size, e.Max)
}

// StdoutLineError marks a stdout line that is not a JSON-RPC message: either
// not JSON at all (a server logging to stdout) or JSON of the wrong shape.
// The line is captured but not delivered.
type StdoutLineError struct {
	JSON bool   // the line is valid JSON, just not JSON-RPC
	Head string // the start of the line, for the message
	Err  error  // the decoder's reason
}

// maxHeadShown caps the line quoted in StdoutLineError.Error.
const maxHeadShown = 80

func (e *StdoutLineError) Error() string {
	what := "a non-JSON line"
	if e.JSON {
		what = "JSON that is not a JSON-RPC message"
	}
	return fmt.Sprintf("server wrote %s to stdout: %s: %v", what, termtext.QuoteMax(e.Head, 0), e.Err)
}

// Unwrap returns the decoder's reason.
func (e *StdoutLineError) Unwrap() error { return e.Err }

// headOf returns the start of line for an error message.
func headOf(line []byte) string {
	if len(line) > maxHeadShown {
		return string(line[:maxHeadShown]) + "…"
	}
	return string(line)
}

// BeforeHandshake returns a copy of e that says the server went before
// answering initialize (client.HandshakeExit).
func (e *ExitError) BeforeHandshake() error { return BeforeInitialize(e) }
