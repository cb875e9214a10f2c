package tuie2e

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/internal/statedir"
)

// TestMain gives the TUIs these tests start a state directory of their
// own: they record every session by default.
func TestMain(m *testing.M) { os.Exit(statedir.Run(m.Run)) }
