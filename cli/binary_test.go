package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

var mcpscopeBuild struct {
	once sync.Once
	dir  string
	path string
	err  string
}

// removeBuiltBinary removes the command builtBinary built, if it did.
func removeBuiltBinary() {
	if mcpscopeBuild.dir != "" {
		_ = os.RemoveAll(mcpscopeBuild.dir)
	}
}

// builtBinary returns the path of the mcpscope command built from this
// tree, once per test binary, for tests that run it as a user would (its
// exit codes and messages, or a harness that starts it).
func builtBinary(t testing.TB) string {
	t.Helper()
	mcpscopeBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcpscope-bin-")
		if err != nil {
			mcpscopeBuild.err = err.Error()
			return
		}
		mcpscopeBuild.dir = dir
		path := filepath.Join(dir, "mcpscope")
		cmd := exec.Command("go", "build", "-o", path, ".")
		cmd.Dir = peertest.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			mcpscopeBuild.err = err.Error() + "\n" + string(out)
			return
		}
		mcpscopeBuild.path = path
	})
	if mcpscopeBuild.err != "" {
		t.Fatalf("building mcpscope: %s", mcpscopeBuild.err)
	}
	return mcpscopeBuild.path
}
