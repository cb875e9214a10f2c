// Package statedir gives a test binary a state directory and a home of its
// own, so that the sessions its TUIs record never land in the user's and
// the MCP config files it reads are never the user's.
package statedir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Run points XDG_STATE_HOME at a fresh temporary directory, and HOME,
// XDG_CONFIG_HOME and APPDATA at an empty home inside it, runs the tests
// and removes the directory. It returns the exit code of run.
func Run(run func() int) int {
	dir, err := os.MkdirTemp("", "mcpscope-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating a state directory:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	for k, v := range map[string]string{
		"XDG_STATE_HOME":  dir,
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"APPDATA":         filepath.Join(home, "AppData", "Roaming"),
	} {
		if err := os.Setenv(k, v); err != nil {
			fmt.Fprintf(os.Stderr, "setting %s: %v\n", k, err)
			return 1
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "creating a home:", err)
		return 1
	}
	return run()
}
