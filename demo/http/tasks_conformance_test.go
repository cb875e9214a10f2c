package demohttp

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// harnessCheck is one check line of the conformance harness's report.
var harnessCheck = regexp.MustCompile(`\[([a-z0-9-]+)\s*\] (SUCCESS|FAILURE|WARNING)`)

// The conformance harness's SEP-2663 server scenarios pass against the
// demo's stateless 2026-07-28 endpoint: every check of tasks-wire-fields
// and tasks-request-state-removal, and every task check of
// tasks-lifecycle, wire-schema-valid included (every 2026-07-28 result of
// the demo says its resultType).
func TestTasksConformanceScenarios(t *testing.T) {
	t.Parallel()
	harness := peertest.ConformanceHarness(t)
	ts := startServer(t, Options{})
	for _, sc := range []string{"tasks-lifecycle", "tasks-wire-fields", "tasks-request-state-removal"} {
		t.Run(sc, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
			defer cancel()
			args := append(harness[1:], "server", "--url", ts.url+PathMCP, "--scenario", sc)
			out, _ := exec.CommandContext(ctx, harness[0], args...).CombinedOutput()
			plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(string(out), "")
			checks := harnessCheck.FindAllStringSubmatch(plain, -1)
			if len(checks) == 0 {
				t.Fatalf("the harness reported no check:\n%s", plain)
			}
			for _, c := range checks {
				if c[2] != "SUCCESS" {
					t.Errorf("%s: %s %s", sc, c[1], c[2])
				}
			}
			if t.Failed() {
				t.Log(strings.TrimSpace(plain))
			}
		})
	}
}
