package peertest

import (
	"flag"
	"runtime"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// PeerParallelism is how many parallel tests a package of peer tests runs
// at once at least: such tests mostly wait on other processes (a peer, the
// built binary, a timeout the test sleeps out), not on their own CPU, so
// one test per core leaves the cores idle.
const PeerParallelism = 4

// WidenParallel lets a test binary run PeerParallelism parallel tests at
// once (or one per core, when there are more cores), unless its command
// line sets -test.parallel. Under the race detector, where a test's CPU
// is no longer small beside its waits, it leaves go test's one per core.
// TestMain calls it before m.Run.
func WidenParallel() {
	if guard.Race {
		return
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(max(PeerParallelism, runtime.GOMAXPROCS(0))))
	}
}
