// Package statedir gives a test binary a state directory of its own, so
// that the sessions its TUIs record never land in the user's.
package statedir

import (
	"fmt"
	"os"
)

// Run points XDG_STATE_HOME at a fresh temporary directory, runs the
// tests and removes the directory. It returns the exit code of run.
func Run(run func() int) int {
	dir, err := os.MkdirTemp("", "mcpscope-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating a state directory:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("XDG_STATE_HOME", dir); err != nil {
		fmt.Fprintln(os.Stderr, "setting XDG_STATE_HOME:", err)
		return 1
	}
	return run()
}
