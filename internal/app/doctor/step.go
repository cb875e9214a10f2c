// Package doctor walks the layers between mcpscope and an MCP server — the
// command or the URL, DNS, TCP, TLS, HTTP, the WebSocket upgrade or
// QUIC/WebTransport, auth, the MCP handshake and one tools/list — and stops
// at the first that fails. Each layer is a step; the walk's
// checklist.Report is what the command line prints and a TUI renders.
package doctor

import (
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// Failure is what a step returns when its layer is broken: the kind, the
// one-line fix, and the cause.
type Failure struct {
	Class checklist.Class
	Fix   string
	Err   error
}

func (f *Failure) Error() string { return f.Err.Error() }

// Unwrap returns the cause.
func (f *Failure) Unwrap() error { return f.Err }

// fail builds a Failure of class with fix, its cause worded by format.
func fail(class checklist.Class, fix, format string, a ...any) error {
	return &Failure{Class: class, Fix: fix, Err: fmt.Errorf(format, a...)}
}

// failureOf reads the class and fix of err: a *Failure's own, else a
// connection failure without a fix (step has made a deadline's error a
// timeout Failure already).
func failureOf(err error) (checklist.Class, string) {
	var f *Failure
	if errors.As(err, &f) {
		return f.Class, f.Fix
	}
	return checklist.Connection, ""
}
