package mcpconfig

import (
	"os"
	"path/filepath"
	"testing"
)

// bom is the UTF-8 byte order mark Windows editors put first in a file.
const bom = "\uFEFF"

// A config file of every format, and an env file, that starts with a byte
// order mark reads as the same file without one.
func TestLoadFileSkipsByteOrderMark(t *testing.T) {
	stdio := `{"command":"srv","args":["-v"]}`
	for _, c := range []struct {
		path, body string
		format     Format
	}{
		{"claude_desktop_config.json", `{"mcpServers":{"s":` + stdio + `}}`, ClaudeDesktop},
		{".mcp.json", `{"mcpServers":{"s":` + stdio + `}}`, ClaudeCode},
		{".cursor/mcp.json", "{\n // a comment\n \"mcpServers\":{\"s\":" + stdio + ",},\n}", Cursor},
		{".vscode/mcp.json", "{\n /* servers */ \"servers\":{\"s\":" + stdio + ",},\n}", VSCode},
		{"mcp_config.json", `{"mcpServers":{"s":` + stdio + `}}`, Windsurf},
		{"inspector.json", `{"mcpServers":{"s":` + stdio + `}}`, Inspector},
		{"server.json", `{"name":"s","packages":[{"registryType":"npm","identifier":"srv","transport":{"type":"stdio"}}]}`, Registry},
	} {
		t.Run(string(c.format), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.path)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(bom+c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			servers, errs := LoadFile(path, t.TempDir())
			if len(errs) > 0 || len(servers) != 1 || servers[0].Format != c.format || servers[0].Transport != "stdio" {
				t.Fatalf("servers %+v, errors %v", servers, errs)
			}
		})
	}
}

func TestEnvFileSkipsByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(bom+"A=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Server{Name: "s", Source: "f", Format: VSCode, Workspace: dir, Transport: "stdio", Command: "x", EnvFile: ".env"}
	r, err := s.Resolve(Expander{LookupEnv: env(nil)})
	if err != nil || len(r.Env) != 1 || r.Env[0] != "A=1" {
		t.Fatalf("env %q, %v", r.Env, err)
	}
}
