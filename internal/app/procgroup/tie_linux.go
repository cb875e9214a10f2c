package procgroup

import (
	"os/exec"
	"syscall"
)

// Tie makes the kernel kill cmd's process (SIGKILL) when the process that
// started it dies, however it dies: a process killed with SIGKILL leaves no
// orphan. Go starts a process from a thread that lives as long as the
// program (no goroutine here locks its thread), so the signal comes with
// the program's death and not before.
func Tie(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
