package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noConfigHome points mcpscope at a home and a working folder with no MCP
// config file in them.
func noConfigHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("APPDATA", filepath.Join(home, "AppData"))
	old := workingDir
	workingDir = func() (string, error) { return home, nil }
	t.Cleanup(func() { workingDir = old })
	return home
}

// A TARGET mcpscope cannot read is explained: a HOST:PORT gets the URL it
// likely meant, a program or script on disk the command line that starts
// it, an unknown NAME the config files it is not in; never "missing
// TARGET".
func TestTargetMistakesAreExplained(t *testing.T) {
	home := noConfigHome(t)
	program := filepath.Join(home, "server")
	script := filepath.Join(home, "server.py")
	if err := os.WriteFile(program, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	jsScript := filepath.Join(home, "index.js")
	for _, f := range []string{script, jsScript} {
		if err := os.WriteFile(f, []byte("print()\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"localhost:3103"}, `"localhost:3103" is not a URL; did you mean http://localhost:3103/mcp?`},
		{[]string{"tools", "127.0.0.1:8080/sse"}, `"127.0.0.1:8080/sse" is not a URL; did you mean http://127.0.0.1:8080/sse?`},
		{[]string{program}, `is a program, not a TARGET: put a stdio command after ` + "`--`" + `, as in mcpscope -- ` + program},
		{[]string{"call", "tools/call", `{"name":"x"}`, program},
			"as in mcpscope call tools/call '{\"name\":\"x\"}' -- " + program},
		{[]string{"tools", script}, "is a file, not a TARGET: put a stdio command after `--`, with what runs it, as in mcpscope tools -- python3 " + script},
		{[]string{"tools", "node", jsScript}, "as in mcpscope tools -- node " + jsScript},
		{[]string{"call", "tools/list", "node", jsScript}, "as in mcpscope call tools/list -- node " + jsScript},
		{[]string{"call", "tools/call", `{"name":"x"}`, "node", jsScript}, "as in mcpscope call tools/call '{\"name\":\"x\"}' -- node " + jsScript},
		{[]string{"tools", "[::1]:3103"}, `"[::1]:3103" is not a URL; did you mean http://[::1]:3103/mcp?`},
		{[]string{"nothere"}, `no server "nothere" in your config files (mcpscope servers lists them)`},
		{[]string{"tools", "nothere"}, `no server "nothere" in your config files (mcpscope servers lists them)`},
	}
	for _, c := range cases {
		r := mcpscope(t, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "missing TARGET") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("mcpscope %s: exit %d, stderr %q\nwant it to hold %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
	}
	// With only METHOD [PARAMS_JSON], call's TARGET is missing, not unknown.
	for _, args := range [][]string{{"call", "tools/list"}, {"call", "tools/call", `{"name":"x"}`}} {
		if r := mcpscope(t, args...); r.code != ExitUsage || !strings.Contains(r.stderr, "missing TARGET") {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// A misspelt NAME gets the closest configured names and mcpscope servers.
func TestUnknownServerNameNamesTheClosest(t *testing.T) {
	configHome(t)
	r := mcpscope(t, "tools", "filesytem")
	r.mustExit(t, ExitUsage)
	if want := `error: no server "filesytem" in your config files; did you mean "filesystem"? (mcpscope servers lists them)`; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr %q\nwant %q", r.stderr, want)
	}
}

// mcpscope with no TARGET and no config file says, in three lines, how to
// start, and exits 2: not the whole help.
func TestNoTargetNoConfigSaysHowToStart(t *testing.T) {
	noConfigHome(t)
	r := mcpscope(t)
	r.mustExit(t, ExitUsage)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "mcpscope demo ") || !strings.HasPrefix(lines[1], "mcpscope URL ") ||
		!strings.HasPrefix(lines[2], "mcpscope -- CMD") || r.stdout != "" {
		t.Errorf("stdout %q, stderr:\n%s", r.stdout, r.stderr)
	}
}
