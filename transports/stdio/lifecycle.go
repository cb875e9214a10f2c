package stdio

import (
	"time"

	"github.com/mcpscope/mcpscope/internal/app/procgroup"
)

// supervise waits for the server to go, drains its output and ends the
// connection with the reason.
func (t *Transport) supervise() {
	stdoutFirst := false
	select {
	case <-t.exited:
	case <-t.stdoutDone:
		// An exiting server closes stdout just before it is reaped; one that
		// is still running after the grace closed stdout on purpose.
		stdoutFirst = !t.waitExit()
	}
	clean := t.life.Closing()
	if stdoutFirst {
		t.stop()
	}
	<-t.exited
	t.drain()
	var err error
	if !clean {
		err = t.exitError(stdoutFirst)
	}
	t.finish(err)
}

// stop shuts the server down: close stdin and wait, SIGTERM the group and
// wait, then SIGKILL the group. Each wait lasts ShutdownGrace; a server
// that stopped reading stdin (a line was cut by its deadline) cannot see
// it close, so it gets SIGTERM at once. It runs once; concurrent callers
// wait for the first.
func (t *Transport) stop() {
	t.stopOnce.Do(func() {
		t.stdin.Close()
		if t.out.Stalled() == nil && t.waitExit() {
			return
		}
		procgroup.Terminate(t.proc)
		if t.waitExit() {
			return
		}
		procgroup.Kill(t.proc)
		<-t.exited
	})
}

// waitExit waits up to ShutdownGrace for the process to be reaped.
func (t *Transport) waitExit() bool {
	timer := time.NewTimer(t.cfg.ShutdownGrace)
	defer timer.Stop()
	select {
	case <-t.exited:
		return true
	case <-timer.C:
		return false
	}
}

// drain waits for both readers to reach the end of their pipes so the
// stderr tail is complete. When a leftover child of the server still holds
// the pipes after ShutdownGrace, the group is killed and the pipes closed.
func (t *Transport) drain() {
	drained := make(chan struct{})
	go func() {
		<-t.stdoutDone
		<-t.stderrDone
		close(drained)
	}()
	timer := time.NewTimer(t.cfg.ShutdownGrace)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		procgroup.Kill(t.proc)
		t.stdout.Close()
		t.stderr.Close()
		<-drained
	}
	t.stdin.Close()
	t.stdout.Close()
	t.stderr.Close()
}

// exitError describes how the server went.
func (t *Transport) exitError(stdoutFirst bool) *ExitError {
	e := &ExitError{ExitCode: -1, Stderr: t.tail.snapshot()}
	if t.state != nil {
		e.ExitCode = t.state.ExitCode()
		e.Signal = procgroup.ExitSignal(t.state)
	}
	switch {
	case stdoutFirst:
		e.Err = errStdoutClosed
	case t.readErr != nil:
		e.Err = t.readErr
	case t.waitErr != nil:
		e.Err = t.waitErr
	}
	return e
}

// finish records why the connection went and closes Done, once.
func (t *Transport) finish(err error) { t.life.End(err, nil) }

// Close shuts the server down gracefully (close stdin → SIGTERM → SIGKILL,
// ShutdownGrace per step) and waits until it is gone. Err is nil afterwards
// unless the server had died before. Close is idempotent and safe to call
// while Send runs.
func (t *Transport) Close() error {
	if !t.life.Close() {
		t.finish(nil)
		return nil
	}
	t.stop()
	<-t.life.Done()
	return nil
}
