package bench

import (
	"os"
	"testing"
)

// floodServerEnv, set to 1, makes this test binary a stdio MCP server that
// floods its client (floodServe) instead of running the benchmarks: the
// server the TUI benchmarks start as their stdio target.
const floodServerEnv = "MCPSCOPE_BENCH_FLOOD_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(floodServerEnv) == "1" {
		if err := floodServe(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
