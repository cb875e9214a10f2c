//go:build !unix

package stdio

import (
	"os"
	"os/exec"
)

// ownProcessGroup does nothing where process groups do not exist.
func ownProcessGroup(*exec.Cmd) {}

// terminate has no gentle form here; the shutdown escalation goes on to kill.
func terminate(*os.Process) error { return nil }

// kill ends the server process.
func kill(p *os.Process) error { return p.Kill() }

// exitSignal is always "" where exits carry no signal.
func exitSignal(*os.ProcessState) string { return "" }
