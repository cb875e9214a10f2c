//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Own does nothing where process groups do not exist.
func Own(*exec.Cmd) {}

// Terminate has no gentle form here; a shutdown escalation goes on to Kill.
func Terminate(*os.Process) error { return nil }

// Kill ends the process.
func Kill(p *os.Process) error { return p.Kill() }

// ExitSignal is always "" where exits carry no signal.
func ExitSignal(*os.ProcessState) string { return "" }

// ExitStatus is the process's exit code.
func ExitStatus(ps *os.ProcessState) int { return ps.ExitCode() }
