package wrap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

const testExe = "/opt/mcpscope/bin/mcpscope"

// configFile writes text as a config file of dir and returns its path.
func configFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// serverOf loads the server name of the config file path as wrap's
// caller does.
func serverOf(t *testing.T, path string, f mcpconfig.Format, name, cwd string) mcpconfig.Server {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ss, errs := mcpconfig.Parse(mcpconfig.Candidate{Path: path, Format: f}, data, cwd)
	for _, s := range ss {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %s: %v", name, errs)
	return mcpconfig.Server{}
}

// wrapEntry wraps name of path into the backups of bdir.
func wrapEntry(t *testing.T, path string, f mcpconfig.Format, name, bdir string) (*Backup, error) {
	t.Helper()
	s := serverOf(t, path, f, name, "")
	return Wrap(Request{Server: s, Exe: testExe, Session: name, BackupDir: bdir})
}

// hostCommand reads the entry name the way a JavaScript host does
// (JSON.parse: exact keys, the last of a duplicate) from the list the
// host reads: its command and args.
func hostCommand(t *testing.T, data []byte, list, name string) (string, []any) {
	t.Helper()
	var top map[string]map[string]map[string]any
	if err := json.Unmarshal(mcpconfig.StripJSONC(data), &top); err != nil {
		t.Fatal(err)
	}
	e := top[list][name]
	cmd, _ := e["command"].(string)
	args, _ := e["args"].([]any)
	return cmd, args
}

// backupsIn counts the backups of bdir.
func backupsIn(t *testing.T, bdir string) int {
	t.Helper()
	bs, errs := Backups(bdir, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return len(bs)
}

// A member whose key differs from "command" only by case is not what the
// host runs: wrap rewrites the "command" the host reads, and keeps the
// other as it is.
func TestWrapRewritesTheKeyTheHostReads(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"real-server","args":["--port","1"],"Command":"legacy"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	b, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", filepath.Join(dir, "w"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	cmd, args := hostCommand(t, data, "mcpServers", "a")
	want := `[proxy --name a -- real-server --port 1]`
	if cmd != testExe || jsonText(args) != want {
		t.Errorf("the host runs %q %s, want %s %s\n%s", cmd, jsonText(args), testExe, want, data)
	}
	if !strings.Contains(string(data), `"Command":"legacy"`) {
		t.Errorf("the member the host ignores was rewritten:\n%s", data)
	}
	if _, err := Unwrap(b, Options{}); err != nil {
		t.Fatal(err)
	}
	if back, _ := os.ReadFile(p); string(back) != orig {
		t.Errorf("unwrap gave\n%s", back)
	}
}

// jsonText renders a decoded list as [a b c].
func jsonText(args []any) string {
	var parts []string
	for _, a := range args {
		s, _ := a.(string)
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// A VS Code file with both lists: VS Code reads servers, so wrap rewrites
// the entry there; Cursor reads mcpServers.
func TestWrapChoosesTheListOfTheHost(t *testing.T) {
	const text = `{"servers":{"a":{"command":"used"}},"mcpServers":{"a":{"command":"other"}}}`
	for _, c := range []struct {
		f          mcpconfig.Format
		list, keep string
	}{{mcpconfig.VSCode, "servers", "mcpServers"}, {mcpconfig.Cursor, "mcpServers", "servers"}} {
		dir := t.TempDir()
		p := configFile(t, dir, "mcp.json", text)
		if _, err := wrapEntry(t, p, c.f, "a", filepath.Join(dir, "w")); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		if cmd, _ := hostCommand(t, data, c.list, "a"); cmd != testExe {
			t.Errorf("%s: the entry of %s runs %q, not mcpscope\n%s", c.f, c.list, cmd, data)
		}
		if cmd, _ := hostCommand(t, data, c.keep, "a"); cmd == testExe {
			t.Errorf("%s: the entry of %s, which the host does not read, was wrapped\n%s", c.f, c.keep, data)
		}
	}
}

// An mcpscope binary under another file name is refused before anything
// is written: the entry would not be known as wrapped.
func TestWrapRefusesABinaryNotNamedMcpscope(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"node"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	bdir := filepath.Join(dir, "w")
	s := serverOf(t, p, mcpconfig.ClaudeDesktop, "a", "")
	_, err := Wrap(Request{Server: s, Exe: "/home/u/bin/mcpscope_linux_amd64", Session: "a", BackupDir: bdir})
	if err == nil || !strings.Contains(err.Error(), "rename the binary to mcpscope") || strings.Contains(err.Error(), "damage") {
		t.Fatalf("wrap with mcpscope_linux_amd64: %v", err)
	}
	if data, _ := os.ReadFile(p); string(data) != orig || backupsIn(t, bdir) != 0 {
		t.Errorf("the refusal wrote something:\n%s", data)
	}
}

// A file that wrapping would take past the size mcpscope reads is left as
// it was (else not even unwrap --force could read it back).
func TestWrapRefusesToGrowPastTheSizeLimit(t *testing.T) {
	dir := t.TempDir()
	head := `{"mcpServers":{"a":{"command":"node"}},"pad":"`
	orig := head + strings.Repeat("x", mcpconfig.MaxFileSize-len(head)-2-10) + `"}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	bdir := filepath.Join(dir, "w")
	_, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", bdir)
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("wrap of a file %d bytes under the limit: %v", mcpconfig.MaxFileSize-len(orig), err)
	}
	if data, _ := os.ReadFile(p); string(data) != orig || backupsIn(t, bdir) != 0 {
		t.Error("the refusal wrote something")
	}
}
