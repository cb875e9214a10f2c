package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
)

// ErrInterrupted is the cause of a run's context when the user interrupted
// it (Ctrl-C, SIGINT); such a run exits with ExitInterrupted.
var ErrInterrupted = errors.New("interrupted")

// InterruptContext returns a context that ends with the cause
// ErrInterrupted on the first SIGINT, and a function that releases the
// signal. A second SIGINT is left to its default action, so a run that is
// slow to wind down can still be killed from the keyboard.
func InterruptContext(parent context.Context) (context.Context, func()) {
	return signalContext(parent, true, os.Interrupt)
}

// signalContext returns a context that the first of sigs ends, with the
// cause ErrInterrupted for SIGINT and "the host sent SIG" for another,
// and a function that releases the signals. With first, the signals are
// released as soon as one came, so that a second gets its default action.
func signalContext(parent context.Context, first bool, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			if first {
				signal.Stop(sig)
			}
			if s == os.Interrupt {
				cancel(ErrInterrupted)
			} else {
				cancel(fmt.Errorf("the host sent %v", s))
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel(nil)
	}
}

// interrupted reports whether ctx ended because the user interrupted the run.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrInterrupted)
}

// errStoppedAsMeant is what a command returns when an interruption ended it
// the way it was meant to end (a watch that runs until stopped, once it
// printed): Execute then exits 0 rather than ExitInterrupted.
var errStoppedAsMeant = errors.New("stopped by the user, as meant")
