package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// initTimeBudget bounds the time every package's initialisation takes
// together when mcpscope starts: a heavy library is initialised lazily,
// the first time it is needed, never at start-up.
const initTimeBudget = 3 * time.Millisecond

// initException is a package whose initialisation cannot be made lazy:
// Go runs the init of every package linked in, and the library is not to
// be rewritten. Its own time is bounded apart, outside initTimeBudget.
type initException struct {
	budget time.Duration
	reason string
}

// initExceptions are the packages initTimeBudget does not count.
var initExceptions = map[string]initException{
	"github.com/santhosh-tekuri/jsonschema/v6": {
		budget: 8 * time.Millisecond,
		reason: "compiles the meta-schemas of its five drafts in init()",
	},
}

// initRuns is how many times the binary is started; the fastest run is
// judged, so that a loaded machine, which only ever slows a run down,
// does not fail the test.
const initRuns = 7

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg   string
	clock time.Duration
}

// TestInitTime runs `mcpscope version` with the runtime's init trace
// initRuns times and fails when even the fastest run spends more than
// initTimeBudget in package initialisation, naming the slowest packages
// of that run; each of initExceptions is held to its own budget, in its
// fastest run.
func TestInitTime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var best []initCost
	bestTotal := time.Duration(-1)
	excepted := map[string]time.Duration{}
	for range initRuns {
		var costs []initCost
		for _, c := range initTrace(t, bin) {
			if _, ok := initExceptions[c.pkg]; !ok {
				costs = append(costs, c)
			} else if d, seen := excepted[c.pkg]; !seen || c.clock < d {
				excepted[c.pkg] = c.clock
			}
		}
		if total := sumClock(costs); bestTotal < 0 || total < bestTotal {
			best, bestTotal = costs, total
		}
	}
	for pkg, d := range excepted {
		if e := initExceptions[pkg]; d > e.budget {
			t.Errorf("init of %s takes %v in its fastest of %d runs, over its budget of %v (it %s)", pkg, d, initRuns, e.budget, e.reason)
		}
	}
	if bestTotal > initTimeBudget {
		slices.SortFunc(best, func(a, b initCost) int { return int(b.clock - a.clock) })
		t.Errorf("package init takes %v in the fastest of %d runs, over the budget of %v; the slowest: %v",
			bestTotal, initRuns, initTimeBudget, best[:min(5, len(best))])
	}
}

// initTrace runs bin version with the init trace and reads it.
func initTrace(t *testing.T, bin string) []initCost {
	t.Helper()
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcpscope version: %v\n%s", err, stderr.String())
	}
	costs, err := parseInitTrace(stderr.String())
	if err != nil || len(costs) == 0 {
		t.Fatalf("init trace not read (%v):\n%s", err, stderr.String())
	}
	return costs
}

// sumClock is the time all the packages' initialisation took.
func sumClock(costs []initCost) time.Duration {
	var total time.Duration
	for _, c := range costs {
		total += c.clock
	}
	return total
}

// parseInitTrace reads the lines "init PKG @T ms, T ms clock, N bytes, N
// allocs" of GODEBUG=inittrace=1 and skips every other line.
func parseInitTrace(trace string) ([]initCost, error) {
	var out []initCost
	sc := bufio.NewScanner(strings.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[5] != "ms" || f[6] != "clock," {
			continue
		}
		ms, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return nil, fmt.Errorf("line %q: clock %w", sc.Text(), err)
		}
		out = append(out, initCost{pkg: f[1], clock: time.Duration(ms * float64(time.Millisecond))})
	}
	return out, sc.Err()
}

// String shows a cost as "pkg 0.12ms".
func (c initCost) String() string {
	return fmt.Sprintf("%s %.3fms", c.pkg, float64(c.clock)/float64(time.Millisecond))
}
