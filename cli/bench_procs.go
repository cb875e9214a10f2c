package cli

import (
	"os"
	"runtime"
	"sync"
)

// benchProcs is how many threads run Go code during a run against a
// stdio server. The server runs on the same machine and needs its cores
// more than the client: one thread carries tens of thousands of calls a
// second, and a second one only adds the cost of handing each answer
// across threads (a wake-up of an idle thread per answer, about a
// quarter of the client's CPU per call).
const benchProcs = 1

// procsHeld counts the runs that hold GOMAXPROCS at benchProcs; the first
// sets it and the last puts back what was there before.
var procsHeld struct {
	sync.Mutex
	n    int
	prev int
}

// fewerThreads sets GOMAXPROCS to benchProcs for a run against a stdio
// server, unless the GOMAXPROCS environment variable says otherwise, and
// returns what puts the previous value back.
func fewerThreads(target Target) func() {
	if target.Transport != "stdio" || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	procsHeld.Lock()
	defer procsHeld.Unlock()
	if procsHeld.n == 0 {
		procsHeld.prev = runtime.GOMAXPROCS(benchProcs)
	}
	procsHeld.n++
	return func() {
		procsHeld.Lock()
		defer procsHeld.Unlock()
		if procsHeld.n--; procsHeld.n == 0 {
			runtime.GOMAXPROCS(procsHeld.prev)
		}
	}
}
