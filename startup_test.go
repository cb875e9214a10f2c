package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// initBudget is the most a package's initialisation may allocate when
// mcpscope starts. Allocation is deterministic where time is not; a
// package that builds tables, compiles patterns or registers catalogues
// at start-up allocates well past it.
const initBudget = 32 << 10

// initTotalBudget bounds the sum over all packages but those below.
const initTotalBudget = 256 << 10

// initExceptions are packages allowed more, each with the reason; none
// is today.
var initExceptions = map[string]int{}

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg    string
	bytes  int
	allocs int
}

// TestInitAllocationBudget runs `mcpscope version` with the runtime's init
// trace and fails naming each package whose initialisation allocates more
// than its budget.
func TestInitAllocationBudget(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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
	sort.Slice(costs, func(i, j int) bool { return costs[i].bytes > costs[j].bytes })
	total := 0
	for _, c := range costs {
		budget, excepted := initExceptions[c.pkg]
		if !excepted {
			budget = initBudget
			total += c.bytes
		}
		if c.bytes > budget {
			t.Errorf("init of %s allocates %d bytes in %d allocations, over its budget of %d: make that work lazy", c.pkg, c.bytes, c.allocs, budget)
		}
	}
	if total > initTotalBudget {
		t.Errorf("package init allocates %d bytes in all, over the budget of %d; the largest: %v", total, initTotalBudget, costs[:min(5, len(costs))])
	}
}

// parseInitTrace reads the lines "init PKG @T ms, T ms clock, N bytes, N
// allocs" of GODEBUG=inittrace=1 and skips every other line.
func parseInitTrace(trace string) ([]initCost, error) {
	var out []initCost
	sc := bufio.NewScanner(strings.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		n, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("line %q: bytes %w, allocs %w", sc.Text(), err1, err2)
		}
		out = append(out, initCost{pkg: f[1], bytes: b, allocs: n})
	}
	return out, sc.Err()
}
