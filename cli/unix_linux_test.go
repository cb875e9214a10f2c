package cli

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Linux abstract sockets: `serve --unix @NAME` listens on one and
// unix://@NAME#/mcp reaches it; the doctor has no file to look at.
func TestUnixAbstractSocket(t *testing.T) {
	t.Parallel()
	name := fmt.Sprintf("@mcpscope-test-%d", os.Getpid())
	ctx, cancel := serveContext()
	defer cancel()
	line := regexp.MustCompile(`connect with:\n  mcpscope tools (unix://` + name + `#/mcp)\n`)
	m, errw, exit := startServe(t, ctx, line, "serve", "--unix", name, "--root", t.TempDir())
	if !strings.Contains(errw.String(), "abstract: no file") {
		t.Errorf("serve does not say the socket is abstract: %s", errw.String())
	}
	r := mcpscope(t, "call", "tools/call", `{"name":"echo","arguments":{"message":"no file"}}`, m[1])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "no file") {
		t.Errorf("call: %s", r.stdout)
	}
	r = mcpscope(t, "doctor", m[1])
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "an abstract socket (no file)") {
		t.Errorf("doctor: %s", r.stdout)
	}
	stopServe(t, cancel, errw, exit)
}
