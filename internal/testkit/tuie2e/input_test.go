package tuie2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// testConfigInput answers a config file's ${input:…} at a terminal: a
// plain input is echoed as it is typed, a password input is not, and both
// reach the server (the TypeScript reference's get-env shows its
// environment, written to a file rather than the screen).
func testConfigInput(t *testing.T, bin string) {
	const name, secret = "typed-name-7f3a", "typed-secret-9c1e"
	dir := t.TempDir()
	ts := peertest.TSEverything(t, "stdio")
	cfg := filepath.Join(dir, ".vscode", "mcp.json")
	doc := fmt.Sprintf(`{
  "inputs": [
    {"type": "promptString", "id": "who", "description": "your name"},
    {"type": "promptString", "id": "key", "description": "the API key", "password": true}
  ],
  "servers": {"typed": {"type": "stdio", "command": %q, "args": [%q, %q],
    "env": {"MCPSCOPE_TYPED_1_NAME": "${input:who}", "MCPSCOPE_TYPED_2_KEY": "${input:key}"}}}
}`, ts[0], ts[1], ts[2])
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "result.json")
	script := fmt.Sprintf(`"$0" "$@" >'%s'; echo "mcpscope exited $?"`, out)
	p := startPane(t, "sh", "-c", script, bin, "call", "tools/call", `{"name":"get-env","arguments":{}}`, "--config", cfg, "typed")
	p.remainOnExit()
	// The variables are expanded in the order of their names; capture-pane
	// trims the space after each prompt.
	p.waitFor(`"typed" asks for "who" (your name):`)
	p.typeText(name)
	p.keys("Enter")
	p.waitFor(`"typed" asks for "key" (the API key):`)
	p.typeText(secret)
	p.keys("Enter")
	p.waitFor("mcpscope exited ")
	// The whole pane, scrolled-off lines too: tmux may scroll the first
	// line off as the pane settles.
	screen, err := p.history()
	if err != nil {
		t.Fatalf("capturing the pane: %v\n%s", err, screen)
	}
	if !strings.Contains(screen, "mcpscope exited 0") {
		t.Fatalf("mcpscope failed:\n%s", screen)
	}
	if !strings.Contains(screen, `"typed" asks for "who" (your name): `+name) {
		t.Errorf("the plain input was not echoed:\n%s", screen)
	}
	if strings.Contains(screen, secret) {
		t.Errorf("the password input was echoed:\n%s", screen)
	}
	result, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`MCPSCOPE_TYPED_1_NAME\": \"` + name + `\"`, `MCPSCOPE_TYPED_2_KEY\": \"` + secret + `\"`} {
		if !strings.Contains(string(result), want) {
			t.Errorf("the server's environment does not hold %s:\n%s", want, result)
		}
	}
}
