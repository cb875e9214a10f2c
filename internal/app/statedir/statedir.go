// Package statedir gives a test binary a state directory and a home of its
// own, so that the sessions its TUIs record never land in the user's and
// the MCP config files it reads are never the user's; and it keeps the
// binary away from the OS keyring, so no test reads or writes the user's
// tokens there.
package statedir

import (
	"fmt"
	"go/build"
	"os"
	"path/filepath"
)

// Run points XDG_STATE_HOME at a fresh temporary directory, XDG_RUNTIME_DIR
// at a private directory inside it (where live proxied sessions publish
// their sockets), and HOME,
// XDG_CONFIG_HOME and APPDATA at an empty home inside it, sets
// MCPSCOPE_KEYRING=off (the token store then keeps everything in its file
// in that home, never in the OS keyring), runs the tests and removes the
// directory. It returns the exit code of run.
func Run(run func() int) int {
	dir, err := os.MkdirTemp("", "mcpscope-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating a state directory:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	// The go and npm commands the tests run keep the caches they had:
	// a new home must not make them build or download everything again.
	keep := map[string]string{"GOPATH": build.Default.GOPATH}
	if c, err := os.UserCacheDir(); err == nil {
		keep["GOCACHE"] = filepath.Join(c, "go-build")
	}
	if h, err := os.UserHomeDir(); err == nil {
		keep["npm_config_cache"] = filepath.Join(h, ".npm")
	}
	for k, v := range keep {
		if _, set := os.LookupEnv(k); !set && v != "" {
			if err := os.Setenv(k, v); err != nil {
				fmt.Fprintf(os.Stderr, "setting %s: %v\n", k, err)
				return 1
			}
		}
	}
	for k, v := range map[string]string{
		"XDG_STATE_HOME":   dir,
		"HOME":             home,
		"XDG_CONFIG_HOME":  filepath.Join(home, ".config"),
		"APPDATA":          filepath.Join(home, "AppData", "Roaming"),
		"MCPSCOPE_KEYRING": "off",
	} {
		if err := os.Setenv(k, v); err != nil {
			fmt.Fprintf(os.Stderr, "setting %s: %v\n", k, err)
			return 1
		}
	}
	if err := os.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "run")); err != nil {
		fmt.Fprintf(os.Stderr, "setting XDG_RUNTIME_DIR: %v\n", err)
		return 1
	}
	if err := os.Mkdir(filepath.Join(dir, "run"), 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "creating a runtime directory:", err)
		return 1
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "creating a home:", err)
		return 1
	}
	return run()
}
