package tokenstore

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/statedir"
)

// TestMain runs the tests, or, started by TestProcessesSavingAllKept with
// envWriter set, is one of its writer processes.
func TestMain(m *testing.M) {
	if dir := os.Getenv(envWriter); dir != "" {
		os.Exit(writerProcess(dir, os.Getenv(envWriterName)))
	}
	os.Exit(statedir.Run(m.Run))
}
