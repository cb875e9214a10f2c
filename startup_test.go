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

// initRuns is how many times a round starts the binary; each package is
// judged by its fastest initialisation over the runs, so that a loaded
// machine, which only ever slows a run down, and a preemption in the
// middle of one package's init in one run, do not fail the test.
const initRuns = 15

// initRounds bounds the rounds of initRuns: a round over budget is
// followed, after initRoundPause, by another whose runs may each give a
// package a faster init, so that a busy moment (the packages that go test
// builds beside this one) passes; a package whose init is heavy stays
// over budget in every run of every round.
const (
	initRounds     = 10
	initRoundPause = 3 * time.Second
)

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg   string
	clock time.Duration
}

// TestInitTime runs `mcpscope version` with the runtime's init trace in
// rounds of initRuns, takes each package's fastest initialisation, and
// fails when after initRounds those of all the packages together still
// come to more than initTimeBudget, naming the slowest; each of
// initExceptions is held to its own budget apart.
func TestInitTime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fastest := map[string]time.Duration{}
	var costs []initCost
	var over []string
	runs := 0
	for round := 1; ; round++ {
		for range initRuns {
			for _, c := range initTrace(t, bin) {
				if d, seen := fastest[c.pkg]; !seen || c.clock < d {
					fastest[c.pkg] = c.clock
				}
			}
		}
		runs += initRuns
		costs, over = judgeInit(fastest)
		if len(over) == 0 && sumClock(costs) <= initTimeBudget || round == initRounds {
			break
		}
		time.Sleep(initRoundPause)
	}
	total := sumClock(costs)
	t.Logf("package init: %v for %d packages, each at its fastest in %d runs", total, len(costs), runs)
	for _, e := range over {
		t.Errorf("init of %s, at its fastest in %d runs", e, runs)
	}
	if total > initTimeBudget {
		slices.SortFunc(costs, func(a, b initCost) int { return int(b.clock - a.clock) })
		t.Errorf("package init takes %v, each package at its fastest in %d runs, over the budget of %v; the slowest: %v",
			total, runs, initTimeBudget, costs[:min(5, len(costs))])
	}
}

// judgeInit splits the packages' fastest inits into those initTimeBudget
// counts and the initExceptions over their own budgets, said in words.
func judgeInit(fastest map[string]time.Duration) (costs []initCost, over []string) {
	for pkg, d := range fastest {
		if e, ok := initExceptions[pkg]; !ok {
			costs = append(costs, initCost{pkg: pkg, clock: d})
		} else if d > e.budget {
			over = append(over, fmt.Sprintf("%s takes %v, over its budget of %v (it %s)", pkg, d, e.budget, e.reason))
		}
	}
	return costs, over
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
