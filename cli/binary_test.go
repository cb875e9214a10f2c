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
	path string
	err  string
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
