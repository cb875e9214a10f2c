package stdio

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
)

// childEnv makes the test binary, started by a test, serve the demo on its
// stdin and stdout; childRoot names the sandbox root.
const (
	childEnv  = "MCPSCOPE_DEMO_STDIO_CHILD"
	childRoot = "MCPSCOPE_DEMO_STDIO_ROOT"
)

// TestMain runs the demo server when started as a child, the tests otherwise.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(serveChild())
	}
	os.Exit(m.Run())
}

// serveChild serves the demo on stdin/stdout, as `mcpscope serve --stdio`.
func serveChild() int {
	core, err := demo.New(demo.Options{SandboxRoot: os.Getenv(childRoot), InlineLimit: 1 << 16})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer core.Close()
	if err := Serve(context.Background(), core, os.Stdin, os.Stdout, Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}
