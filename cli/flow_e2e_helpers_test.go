package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
)

// These tests run mcpscope's command line in-process against the demo
// server over MCP-Flow on loopback: cli.Execute, the engine, the
// WebTransport client and demo/flow, nothing faked.

// flowDemo starts the demo MCP-Flow server for the test.
func flowDemo(t *testing.T) *flowtest.Demo { return flowtest.Start(t, flow.Config{}) }

// toolCall returns the PARAMS_JSON of a tools/call of a demo tool.
func toolCall(t *testing.T, name string, args any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"name": name, "arguments": args})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// flowCall runs `mcpscope call --cert-hash HASH FLAGS… tools/call PARAMS
// wt://…` against the demo.
func flowCall(t *testing.T, d *flowtest.Demo, params string, flags ...string) result {
	t.Helper()
	args := append([]string{"call", "--cert-hash", d.CertHash()}, flags...)
	return mcpscope(t, append(args, "tools/call", params, d.Target())...)
}

// flowTraceStart is how a --trace line starts: time and direction.
var flowTraceStart = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} [→←] `)

// checkStderrLines fails unless every stderr line is a one-line warning or
// error (or, with trace, a trace line), and nothing panicked.
func checkStderrLines(t *testing.T, r result, trace bool) {
	t.Helper()
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("stderr shows a panic:\n%s", r.stderr)
	}
	for _, ln := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
		ok := ln == "" || strings.HasPrefix(ln, "warning: ") || strings.HasPrefix(ln, "error: ") ||
			trace && flowTraceStart.MatchString(ln)
		if !ok {
			t.Fatalf("stderr line %q is neither a warning nor an error:\n%s", ln, r.stderr)
		}
	}
}

// checkResultOnly fails unless stdout is exactly one line of JSON holding want.
func checkResultOnly(t *testing.T, r result, want string) {
	t.Helper()
	if !json.Valid([]byte(r.stdout)) || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, want) {
		t.Fatalf("stdout is not just the result JSON holding %q:\n%s", want, r.stdout)
	}
}
