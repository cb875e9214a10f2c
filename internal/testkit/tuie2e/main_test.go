package tuie2e

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/statedir"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// TestMain gives the TUIs these tests start a state directory of their
// own: they record every session by default.
// The journeys wait on tmux and the binary, not on their own CPU: several
// run at once.
func TestMain(m *testing.M) {
	peertest.WidenParallel()
	os.Exit(statedir.Run(m.Run))
}
