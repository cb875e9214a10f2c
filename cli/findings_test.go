package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// findingLines are the --findings lines of a run's stderr.
func findingLines(r result) []string {
	var out []string
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "finding ") {
			out = append(out, l)
		}
	}
	return out
}

// findingLine is the shape of one --findings line.
var findingLine = regexp.MustCompile(`^finding (note|warning|error) [a-z0-9-]+: .+ \(frame \d+\)$`)

// mustFind checks that the run printed a finding of code, each finding
// line in its shape.
func mustFind(t *testing.T, r result, code string) {
	t.Helper()
	found := false
	for _, l := range findingLines(r) {
		if !findingLine.MatchString(l) {
			t.Errorf("finding line %q is not in the pinned shape", l)
		}
		found = found || strings.Contains(l, " "+code+": ")
	}
	if !found {
		t.Errorf("no %s finding; stderr:\n%s", code, r.stderr)
	}
}

// Clean real servers yield no finding over a whole session: the Go SDK's
// conformance server speaking 2026-07-28 over HTTP (every result with its
// resultType, Mcp-* headers as mcpscope writes them) and the TypeScript
// reference over stdio (structuredContent checked against its
// outputSchema). The Go SDK's server logging is the one finding, a
// deprecated feature in use.
func TestFindingsNoneOnCleanPeers(t *testing.T) {
	t.Parallel()
	t.Run("go-sdk-http", func(t *testing.T) {
		t.Parallel()
		url := peertest.StartGoSDKConformanceHTTP(t, true).URL
		for _, args := range [][]string{{"tools"}, {"resources"}, {"prompts"}, {"tool", "test_simple_text"}, {"tool", "test_image_content"}} {
			r := mcpscope(t, append(append(args, "--findings"), url)...)
			r.mustExit(t, ExitOK)
			if got := findingLines(r); len(got) > 0 {
				t.Errorf("%s: findings on a clean server: %q", args, got)
			}
		}
		// Logging is deprecated in 2026-07-28 (SEP-2577), still working:
		// its messages are one warning, once a session.
		r := mcpscope(t, "tool", "test_tool_with_logging", "--log-level", "debug", "--findings", url)
		r.mustExit(t, ExitOK)
		if got := findingLines(r); len(got) != 1 || !strings.HasPrefix(got[0], "finding warning deprecated-logging: ") {
			t.Errorf("findings of a session that logs: %q", got)
		}
	})
	t.Run("ts-stdio", func(t *testing.T) {
		t.Parallel()
		argv := peertest.TSEverything(t, "stdio")
		// With a root, the server asks roots/list: no deprecated feature
		// in a 2025-11-25 session, though mcpscope probed 2026-07-28 first.
		for _, args := range [][]string{{"tools", "--root", t.TempDir()}, {"tool", "get-structured-content", "location=Chicago"}} {
			r := mcpscope(t, withTarget(argv, append(args, "--findings")...)...)
			r.mustExit(t, ExitOK)
			if got := findingLines(r); len(got) > 0 {
				t.Errorf("%s: findings on a clean server: %q", args, got)
			}
		}
	})
}

// The TypeScript reference answers a request naming a session it does not
// know with 400, where the spec wants 404: a finding.
func TestFindingsTSUnknownSession(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	r := mcpscope(t, "tools", "--findings", "--header", "Mcp-Session-Id: forgotten", url)
	mustFind(t, r, "unknown-session-not-404")
}

// The demo's misbehaviours, each a finding: a lying length prefix over
// MCP-Flow, an index gap on a gateway stream, the legacy HTTP+SSE
// transport, an x-mcp-header clash; a stdio server logging to stdout.
func TestFindingsDemoMisbehaves(t *testing.T) {
	d := flowDemo(t)
	mustFind(t, flowCall(t, d, toolCall(t, "misbehave", map[string]any{"mode": "lying_length"}), "--findings"), "length-prefix-over-max")

	gw := startGatewayDemo(t)
	mustFind(t, mcpscope(t, "tool", "misbehave", "mode=index_gap", "--findings", "--transport", "gateway", gw), "stream-index-gap")

	sse := startTestDemo(t, startHTTPDemo, "sse")
	mustFind(t, mcpscope(t, "tools", "--findings", "--transport", "sse", sse), "deprecated-http-sse")

	http := startTestDemo(t, startHTTPDemo, "http")
	mustFind(t, mcpscope(t, "tools", "--findings", http), "x-mcp-header-invalid")

	argv, env := stubArgv(t, "noisy")
	mustFind(t, mcpscope(t, withTarget(argv, "tools", "--findings", "--env", env)...), "stdout-not-json")
	argv, env = stubArgv(t, "huge")
	mustFind(t, mcpscope(t, withTarget(argv, "tools", "--findings", "--max-frame-size", "1024", "--env", env)...), "frame-over-limit")
}

// Without --findings nothing is printed; past 20 findings of a code the
// rest are counted, and the count is said at the end.
func TestFindingsPrintedAtMostTwentyACode(t *testing.T) {
	var buf bytes.Buffer
	quiet := newFindingLog(nil)
	l := newFindingLog(&lineWriter{w: &buf})
	for i := range 25 {
		raw := []byte(fmt.Sprintf("log line %d\n", i))
		f := &capture.Frame{Seq: uint64(i + 1), Dir: capture.In, Raw: raw, Size: len(raw), Fields: jsonrpc.LineFields(raw), Enc: proto.EncJSON, Err: fmt.Errorf("not JSON")}
		l.Append(f)
		quiet.Append(f)
	}
	l.Flush()
	quiet.Flush()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 21 || !strings.HasPrefix(lines[0], `finding error stdout-not-json: a line on stdout is not JSON: "log line 0" (`) ||
		lines[20] != "finding: 5 more stdout-not-json findings were not shown" {
		t.Errorf("printed:\n%s", buf.String())
	}
	if len(quiet.Found()) != 25 {
		t.Errorf("kept %d findings", len(quiet.Found()))
	}
}

// lint reports the findings its own session met as wire- rules: a stdio
// server logging to stdout fails lint (exit 6) with wire-stdout-not-json.
func TestLintIncludesWireFindings(t *testing.T) {
	t.Parallel() // lint loads the token tables: never beside the sequential heap bounds of the flood tests
	argv, env := stubArgv(t, "noisy")
	r := mcpscope(t, withTarget(argv, "lint", "--format", "json", "--env", env)...)
	r.mustExit(t, ExitLint)
	if !strings.Contains(r.stdout, `"rule":"wire-stdout-not-json"`) {
		t.Errorf("lint report:\n%s", r.stdout)
	}
}
