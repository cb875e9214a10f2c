package tokenstore

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/internal/statedir"
)

func TestMain(m *testing.M) { os.Exit(statedir.Run(m.Run)) }
