package cli

import (
	"runtime"
	"testing"
)

// TestBenchFewerThreads checks that a run against a stdio server holds
// GOMAXPROCS at one while any such run lasts and puts it back after the
// last, and that a URL target or a GOMAXPROCS variable leaves it alone.
func TestBenchFewerThreads(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	if before == benchProcs {
		runtime.GOMAXPROCS(benchProcs + 1)
		defer runtime.GOMAXPROCS(before)
	}
	was := runtime.GOMAXPROCS(0)
	stdio := Target{Transport: "stdio", Argv: []string{"server"}}
	first := fewerThreads(stdio)
	second := fewerThreads(stdio)
	if got := runtime.GOMAXPROCS(0); got != benchProcs {
		t.Fatalf("GOMAXPROCS during a stdio run = %d, want %d", got, benchProcs)
	}
	first()
	if got := runtime.GOMAXPROCS(0); got != benchProcs {
		t.Fatalf("GOMAXPROCS while a second run lasts = %d, want %d", got, benchProcs)
	}
	second()
	if got := runtime.GOMAXPROCS(0); got != was {
		t.Fatalf("GOMAXPROCS after the runs = %d, want %d back", got, was)
	}
	undoHTTP := fewerThreads(Target{Transport: "http"})
	if got := runtime.GOMAXPROCS(0); got != was {
		t.Fatalf("GOMAXPROCS during an HTTP run = %d, want %d untouched", got, was)
	}
	undoHTTP()
	t.Setenv("GOMAXPROCS", "2")
	undo := fewerThreads(stdio)
	if got := runtime.GOMAXPROCS(0); got != was {
		t.Fatalf("GOMAXPROCS with the variable set = %d, want %d untouched", got, was)
	}
	undo()
}
