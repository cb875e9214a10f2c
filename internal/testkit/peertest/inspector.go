package peertest

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// InspectorCase is a remote server the Inspector CLI drives as a host:
// how to start it, the --transport the Inspector speaks to it and the
// tools/call it makes beside tools/list.
type InspectorCase struct {
	Name      string
	Start     func(testing.TB) *HTTPPeer
	Transport string // http or sse
	Call      []string
}

// InspectorHTTPCases are the TypeScript reference server and the Go SDK's
// servers on Streamable HTTP and legacy HTTP+SSE, each with a tool it
// answers.
var InspectorHTTPCases = []InspectorCase{
	{"ts-streamable", StartTSStreamableHTTP, "http", []string{"--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"}},
	{"ts-sse", StartTSSSE, "sse", []string{"--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"}},
	{"gosdk-streamable", StartGoSDKEverythingHTTP, "http", []string{"--method", "tools/call", "--tool-name", "greet", "--tool-arg", "name=Ada"}},
	{"gosdk-sse", StartGoSDKSSE, "sse", []string{"--method", "tools/call", "--tool-name", "greet1", "--tool-arg", "name=Ada"}},
}

// RunInspector runs the Inspector CLI with args and returns what it
// printed on stdout; a failure fails the test with its output. A whole
// run is bounded by guard.Run.
func RunInspector(t testing.TB, args ...string) string {
	t.Helper()
	argv := append(InspectorCLI(t), args...)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the Inspector %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}
