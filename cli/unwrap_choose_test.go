package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// The same name at the top of ~/.claude.json and in a project, both
// wrapped: unwrap chooses as wrap did, by the project of the current
// folder, and both come back.
func TestUnwrapChoosesTheProjectOfTheCurrentFolder(t *testing.T) {
	var text string
	home, _ := wrapHome(t, func(home string) []wrapFixture {
		text = `{"mcpServers":{"a":{"command":"top"}},"projects":{"` + filepath.Join(home, "project") + `":{"mcpServers":{"a":{"command":"proj"}}}}}`
		return []wrapFixture{{host: "claude-code", rel: ".claude.json", text: text}}
	})
	path := filepath.Join(home, ".claude.json")
	project := filepath.Join(home, "project")
	mcpscope(t, "wrap", "a").mustExit(t, ExitOK)
	inHome := func() (string, error) { return home, nil }
	inProject := workingDir
	workingDir = inHome
	mcpscope(t, "wrap", "a").mustExit(t, ExitOK)
	data := readFile(t, path)
	for _, cwd := range []string{home, project} {
		if cmd, _, _ := rawEntry(t, data, mcpconfig.ClaudeCode, "a", cwd); cmd != fakeMcpscope {
			t.Fatalf("a is not wrapped for %s:\n%s", cwd, data)
		}
	}

	mcpscope(t, "unwrap", "a").mustExit(t, ExitOK)
	data = readFile(t, path)
	if cmd, _, _ := rawEntry(t, data, mcpconfig.ClaudeCode, "a", home); cmd != "top" {
		t.Errorf("unwrap in the home did not restore the top entry:\n%s", data)
	}
	if cmd, _, _ := rawEntry(t, data, mcpconfig.ClaudeCode, "a", project); cmd != fakeMcpscope {
		t.Errorf("unwrap in the home restored the project's entry:\n%s", data)
	}
	workingDir = inProject
	mcpscope(t, "unwrap", "a").mustExit(t, ExitOK)
	if got := readFile(t, path); string(got) != text {
		t.Errorf("after both unwraps:\n%s\nwant\n%s", got, text)
	}
}

// Backups of one name in two projects, neither holding the current
// folder: the refusal lists the projects.
func TestUnwrapListsTheProjects(t *testing.T) {
	var p1, p2 string
	home, _ := wrapHome(t, func(home string) []wrapFixture {
		p1, p2 = filepath.Join(home, "p1"), filepath.Join(home, "p2")
		return []wrapFixture{{host: "claude-code", rel: ".claude.json", text: `{"projects":{"` + p1 + `":{"mcpServers":{"a":{"command":"one"}}},"` + p2 + `":{"mcpServers":{"a":{"command":"two"}}}}}`}}
	})
	path := filepath.Join(home, ".claude.json")
	for _, p := range []string{p1, p2} {
		workingDir = func() (string, error) { return p, nil }
		mcpscope(t, "wrap", "a").mustExit(t, ExitOK)
	}
	workingDir = func() (string, error) { return home, nil }
	before := readFile(t, path)
	r := mcpscope(t, "unwrap", "a")
	mustSay(t, r, "is wrapped in 2 places", path, before)
	for _, want := range []string{"project " + p1, "project " + p2, "in the project's folder"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, r.stderr)
		}
	}
}

// --force is refused while another entry of the file is wrapped, and
// says what it would undo; --force-all does it. The other entry, back to
// its original text, is then already unwrapped.
func TestUnwrapForceAllWithAnotherWrappedEntry(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	mcpscope(t, "wrap", "beta").mustExit(t, ExitOK)
	changed := strings.Replace(string(readFile(t, path)), `"--port", "0"`, `"--port", "9"`, 1)
	writeFile(t, path, changed)
	r := mcpscope(t, "unwrap", "alpha", "--force")
	mustSay(t, r, "--force-all", path, []byte(changed))
	if !strings.Contains(r.stderr, `"beta"`) || !strings.Contains(r.stderr, "~/.cursor/mcp.json as it was before") {
		t.Errorf("the refusal does not name beta and the file:\n%s", r.stderr)
	}
	mcpscope(t, "unwrap", "alpha", "--force-all").mustExit(t, ExitOK)
	if got := readFile(t, path); string(got) != cursorFile {
		t.Fatalf("--force-all gave\n%s", got)
	}
	r = mcpscope(t, "unwrap", "beta")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"beta" was already unwrapped`) {
		t.Errorf("unwrap beta says\n%s", r.stdout)
	}
	if got := readFile(t, path); string(got) != cursorFile {
		t.Fatalf("unwrap beta wrote\n%s", got)
	}
}

// wrap --faults loads the rules at wrap time: a file that is not a
// faults file is refused before the config file is touched.
func TestWrapRefusesABadFaultsFile(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	faults := filepath.Join(home, "faults.yaml")
	writeFile(t, faults, "faults: [: not yaml\n")
	r := mcpscope(t, "wrap", "alpha", "--faults", faults)
	mustSay(t, r, "faults.yaml", path, []byte(cursorFile))
	if !strings.Contains(r.stderr, "not YAML or JSON") {
		t.Errorf("the refusal does not say what is wrong:\n%s", r.stderr)
	}
}
