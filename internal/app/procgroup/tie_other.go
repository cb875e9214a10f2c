//go:build !linux

package procgroup

import "os/exec"

// Tie does nothing where the kernel cannot tie a child's life to its
// parent's: a child whose parent was killed sees its standard input close
// and is left to end on its own.
func Tie(*exec.Cmd) {}
