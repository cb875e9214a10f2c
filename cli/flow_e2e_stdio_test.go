package cli

import (
	"context"
	"os"
	"testing"
)

// serveStdioMode makes the test binary run `mcpscope serve --stdio` (see
// TestMain), so that the real command serves the stdio side.
const serveStdioMode = "serve-stdio"

func init() {
	stubTakeovers[serveStdioMode] = func() int {
		return Execute(context.Background(), []string{"serve", "--stdio"}, os.Stdin, os.Stdout, os.Stderr)
	}
}

// `mcpscope serve --stdio`, started as a stdio server by `mcpscope call …
// -- CMD`, lists the demo's tools and answers echo.
func TestFlowE2EServeStdio(t *testing.T) {
	argv, env := stubArgv(t, serveStdioMode)
	call := func(args ...string) result {
		return mcpscope(t, withTarget(argv, append([]string{"call", "--env", env}, args...)...)...)
	}
	r := call("tools/list", "{}")
	r.mustExit(t, ExitOK)
	for _, tool := range []string{"echo", "read_file", "analyze", "tone", "misbehave", "list_templates"} {
		checkResultOnly(t, r, `"name":"`+tool+`"`)
	}
	r = call("tools/call", toolCall(t, "echo", map[string]any{"message": "over stdio"}))
	r.mustExit(t, ExitOK)
	checkResultOnly(t, r, `{"content":[{"type":"text","text":"over stdio"}]}`)
	checkStderrLines(t, r, false)
}
