package bench

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// buildMcpscope builds the mcpscope binary once into a temporary folder.
func buildMcpscope(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "mcpscope")
	// MCPSCOPE_BENCH_TAGS builds it with tags, such as profilehook to
	// profile the binary under a benchmark (profile_hook.go).
	cmd := exec.Command("go", "build", "-tags", os.Getenv("MCPSCOPE_BENCH_TAGS"), "-o", bin, ".")
	cmd.Dir = peertest.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// wall runs argv to completion and returns its wall time.
func wall(b *testing.B, argv []string) time.Duration {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = nil
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s: %v\n%s", filepath.Base(argv[0]), err, out)
	}
	if len(out) == 0 {
		b.Fatalf("%s printed nothing", filepath.Base(argv[0]))
	}
	return d
}

func median[T cmp.Ordered](ds []T) T {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkToolsListingVsInspector compares the wall time of a headless
// tools listing: `mcpscope tools -- SERVER` versus the official MCP
// Inspector's CLI mode (`--cli SERVER --method tools/list`), against the same
// server (the Go SDK's everything example on stdio), alternating in the same
// run. The reported "ratio" is Inspector ÷ mcpscope (target ≥ 20); the
// server itself starts in a few milliseconds, so the ratio mostly measures
// how fast each client starts. "version-ms" is `mcpscope version`: start-up
// and exit alone.
func BenchmarkToolsListingVsInspector(b *testing.B) {
	server := peertest.GoSDKEverything(b)
	bin := buildMcpscope(b)
	ours := append([]string{bin, "tools", "--"}, server...)
	version := []string{bin, "version"}
	theirs := append(append(peertest.InspectorCLI(b), server...), "--method", "tools/list")
	if os.Getenv("CI") != "" {
		b.Logf("CI run: the Inspector may pay a cold npm cache on its first start")
	}
	wall(b, ours) // warm the page cache for both
	wall(b, theirs)

	var dOurs, dTheirs, dVersion []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dOurs = append(dOurs, wall(b, ours))
		dTheirs = append(dTheirs, wall(b, theirs))
		dVersion = append(dVersion, wall(b, version))
	}
	mo, mt := median(dOurs), median(dTheirs)
	b.ReportMetric(float64(mo.Microseconds())/1000, "mcpscope-ms")
	b.ReportMetric(float64(mt.Microseconds())/1000, "inspector-ms")
	b.ReportMetric(float64(median(dVersion).Microseconds())/1000, "version-ms")
	b.ReportMetric(mt.Seconds()/mo.Seconds(), "ratio")
}
