package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
)

// configHome copies testdata/configs/home into a fresh home folder (its
// @HOME@ written as that folder), points HOME, XDG_CONFIG_HOME and APPDATA
// at it, and makes its project the current directory. It returns the home.
func configHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	src := filepath.Join("testdata", "configs", "home")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		dst := filepath.Join(home, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(strings.ReplaceAll(string(data), "@HOME@", home)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("APPDATA", filepath.Join(home, "AppData"))
	project := filepath.Join(home, "project")
	old := workingDir
	workingDir = func() (string, error) { return project, nil }
	t.Cleanup(func() { workingDir = old })
	return home
}

// Every kind of config file — Claude Desktop, Claude Code (user and
// project), Cursor (user, and a broken project file), VS Code (user with
// inputs and comments, project with ${workspaceFolder}), Windsurf's
// serverUrl, the Inspector's mcp.json and a registry server.json — is
// listed with its source, transport and command or URL, secrets redacted;
// the broken file and the bad entry are warnings with their place.
func TestServersListsEveryConfigFile(t *testing.T) {
	home := configHome(t)
	r := mcpscope(t, "servers")
	r.mustExit(t, ExitOK)
	goldentest.Check(t, "servers_list", r.stdout)
	goldentest.Check(t, "servers_list_warnings", strings.ReplaceAll(r.stderr, home, "HOME"))
	for _, secret := range []string{"ghp_not_a_real_token_123", "hunter22", "sk-12345", "ctx7-secret-value", "figd_secret"} {
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("the secret %q is listed", secret)
		}
	}
}

// --config limits the listing to one file; --json gives an array.
func TestServersConfigFileJSON(t *testing.T) {
	home := configHome(t)
	project := filepath.Join(home, "project")
	r := mcpscope(t, "servers", "--json", "--config", filepath.Join(project, "mcp.json"))
	r.mustExit(t, ExitOK)
	var got []serverJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if len(got) != 2 || got[0].Name != "inspector-http" || got[0].Transport != "http" || got[1].Name != "inspector-stdio" || got[1].Env["DEBUG"] != "1" {
		t.Fatalf("got %+v", got)
	}
	r = mcpscope(t, "servers", "--config", filepath.Join(project, ".cursor", "mcp.json"))
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, ".cursor/mcp.json:5:7: invalid character '\"' after object key:value pair") {
		t.Errorf("the broken file is not reported at its line and column:\n%s", r.stderr)
	}
}

// A name in two files asks for --config; a misspelt one suggests the
// close names; an unknown one says it is in no config file.
func TestServerNameResolutionErrors(t *testing.T) {
	home := configHome(t)
	r := mcpscope(t, "tools", "github")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `the server "github" is in 2 config files; choose one with --config FILE`) ||
		!strings.Contains(r.stderr, "claude_desktop_config.json") || !strings.Contains(r.stderr, "mcp_config.json") {
		t.Errorf("a duplicate name:\n%s", r.stderr)
	}
	r = mcpscope(t, "tools", "filesytem")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `did you mean "filesystem"?`) {
		t.Errorf("a misspelt name:\n%s", r.stderr)
	}
	r = mcpscope(t, "filesytem")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `did you mean "filesystem"?`) {
		t.Errorf("a misspelt name for the TUI:\n%s", r.stderr)
	}
	r = mcpscope(t, "tools", "zzzz")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `no server "zzzz" in your config files (mcpscope servers lists them)`) {
		t.Errorf("an unknown name:\n%s", r.stderr)
	}
	r = mcpscope(t, "tools", "--config", filepath.Join(home, "project", "mcp.json"), "zzzz")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `no server is called "zzzz" in "`+filepath.Join(home, "project", "mcp.json")+`"`) {
		t.Errorf("an unknown name in --config:\n%s", r.stderr)
	}
	// Headless, a ${input:…} without its variable names both.
	r = mcpscope(t, "tools", "perplexity")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `asks for the input "perplexity-key" (Perplexity API Key): set MCPSCOPE_INPUT_PERPLEXITY_KEY`) {
		t.Errorf("a missing input:\n%s", r.stderr)
	}
}

// A duplicate or misspelt name is one line on stderr: the files holding
// it, and the files that did not load, follow on that line, not as an
// escaped \n.
func TestServerNameErrorsAreOneLine(t *testing.T) {
	configHome(t)
	for _, args := range [][]string{{"tools", "github"}, {"tools", "filesytem"}, {"filesytem"}} {
		r := mcpscope(t, args...)
		r.mustExit(t, ExitUsage)
		if strings.Contains(r.stderr, `\n`) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("mcpscope %s: not one line:\n%s", strings.Join(args, " "), r.stderr)
		}
	}
	r := mcpscope(t, "tools", "github")
	if !strings.Contains(r.stderr, "choose one with --config FILE: ") || !strings.Contains(r.stderr, "claude_desktop_config.json, ") {
		t.Errorf("the files of a duplicate name are not listed on its line:\n%s", r.stderr)
	}
	r = mcpscope(t, "tools", "filesytem")
	if !strings.Contains(r.stderr, `(mcpscope servers lists them); `) || !strings.Contains(r.stderr, "mcp.json:5:7: ") {
		t.Errorf("the files that did not load are not named on the line:\n%s", r.stderr)
	}
}
