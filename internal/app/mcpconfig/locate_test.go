package mcpconfig

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAppConfigDirPerOS(t *testing.T) {
	getenv := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	home := filepath.Join("/", "u")
	for _, c := range []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"darwin", nil, filepath.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")},
		{"windows", map[string]string{"APPDATA": filepath.Join("/", "roam")}, filepath.Join("/", "roam", "Claude", "claude_desktop_config.json")},
		{"windows", nil, filepath.Join(home, "AppData", "Roaming", "Claude", "claude_desktop_config.json")},
		{"linux", nil, filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")},
		{"linux", map[string]string{"XDG_CONFIG_HOME": filepath.Join("/", "xdg")}, filepath.Join("/", "xdg", "Claude", "claude_desktop_config.json")},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "relative"}, filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")},
	} {
		e := Env{GOOS: c.goos, Getenv: getenv(c.env), Home: home, Cwd: home}
		if got := e.Candidates()[0]; got.Path != c.want || got.Format != ClaudeDesktop {
			t.Errorf("%s %v: %+v, want %s", c.goos, c.env, got, c.want)
		}
	}
}

// Project files are found from the current directory up to the home
// folder, the nearest of each kind; a project file that is also the
// user's (the home's .cursor/mcp.json) is read once.
func TestCandidatesWalkUp(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	deep := filepath.Join(proj, "a", "b")
	for _, p := range []string{
		filepath.Join(proj, ".mcp.json"),
		filepath.Join(proj, "a", ".vscode", "mcp.json"),
		filepath.Join(home, ".cursor", "mcp.json"),
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := Env{GOOS: "linux", Getenv: func(string) string { return "" }, Home: home, Cwd: deep}
	got := map[string]Candidate{}
	count := 0
	for _, c := range e.Candidates() {
		got[c.Path] = c
		count++
	}
	if c := got[filepath.Join(proj, ".mcp.json")]; c.Format != ClaudeCode || c.Workspace != proj {
		t.Errorf(".mcp.json: %+v", c)
	}
	if c := got[filepath.Join(proj, "a", ".vscode", "mcp.json")]; c.Format != VSCode || c.Workspace != filepath.Join(proj, "a") {
		t.Errorf(".vscode/mcp.json: %+v", c)
	}
	if count != len(got) || count != 9 {
		t.Errorf("%d candidates (%d distinct), want 9: %v", count, len(got), got)
	}
}

// ~/.claude.json gives its user servers and those of the nearest project
// holding the current directory, which win on the same name.
func TestClaudeCodeProjects(t *testing.T) {
	data := []byte(`{"mcpServers": {"a": {"command": "user-a"}, "b": {"url": "wss://x/mcp"}},
	 "projects": {"/p": {"mcpServers": {"a": {"command": "p-a"}}},
	              "/p/q": {"mcpServers": {"c": {"type": "sse", "url": "http://c/sse"}}},
	              "/pq": {"mcpServers": {"d": {"command": "no"}}}}}`)
	servers, errs := parseFile(Candidate{Path: "c.json", Format: ClaudeCode}, data, filepath.Join("/p", "q", "r"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, s := range servers {
		got = append(got, s.Name+"="+s.Transport+":"+s.Command+s.URL)
	}
	want := []string{"a=stdio:user-a", "b=ws:wss://x/mcp", "c=sse:http://c/sse"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	if p := projectOf(map[string]int{"/p": 1, "/p/q": 2}, "/p/q/r"); p != "/p/q" {
		t.Errorf("projectOf = %q", p)
	}
}

func TestRegistryServerJSON(t *testing.T) {
	data := []byte(`{"name": "io.example/s", "packages": [
	  {"registryType": "pypi", "identifier": "s-mcp", "version": "2.0", "runtimeArguments": [{"type": "positional", "value": "--quiet"}]},
	  {"registryType": "oci", "identifier": "ghcr.io/e/s:2", "environmentVariables": [{"name": "TOKEN", "isSecret": true, "description": "the token"}]},
	  {"registryType": "npm", "identifier": "s", "transport": {"type": "streamable-http", "url": "http://localhost:8080/mcp"}},
	  {"registryType": "mcpb", "identifier": "https://x/s.mcpb"}],
	 "remotes": [{"type": "sse", "url": "https://e/sse"}]}`)
	servers, errs := parseRegistry(Candidate{Path: "server.json", Format: Registry}, data)
	if len(errs) != 1 || errs[0].Error() != `server.json: package "https://x/s.mcpb": mcpscope cannot run a "mcpb" package` {
		t.Errorf("errors: %v", errs)
	}
	if len(servers) != 4 {
		t.Fatalf("%d servers: %+v", len(servers), servers)
	}
	if s := servers[0]; s.Name != "io.example/s" || s.Command != "uvx" || len(s.Args) != 2 || s.Args[0] != "--quiet" || s.Args[1] != "s-mcp==2.0" {
		t.Errorf("pypi: %+v", s)
	}
	if s := servers[1]; s.Name != "io.example/s#2" || s.Command != "docker" || s.Args[len(s.Args)-1] != "ghcr.io/e/s:2" ||
		s.Env[0] != (Pair{"TOKEN", "${input:TOKEN}"}) || !s.Inputs["TOKEN"].Password || s.Inputs["TOKEN"].Description != "the token" {
		t.Errorf("oci: %+v", s)
	}
	if s := servers[2]; s.Transport != "http" || s.URL != "http://localhost:8080/mcp" {
		t.Errorf("npm over http: %+v", s)
	}
	if s := servers[3]; s.Name != "io.example/s#4" || s.Transport != "sse" {
		t.Errorf("remote: %+v", s)
	}
}

// Resolve expands each dialect and reads the env file; an unset shell
// variable is an error naming the server.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("A=from-file\nB=file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := Expander{LookupEnv: env(map[string]string{"H": "host"}), Home: "/h"}
	s := Server{Name: "s", Source: "f", Format: VSCode, Workspace: dir, Transport: "stdio",
		Command: "${workspaceFolder}/bin", Args: []string{"${env:H}"}, EnvFile: ".env", Env: []Pair{{"B", "env"}}, Cwd: "sub"}
	r, err := s.Resolve(x)
	if err != nil {
		t.Fatal(err)
	}
	if r.Argv[0] != dir+"/bin" || r.Argv[1] != "host" || r.Dir != filepath.Join(dir, "sub") ||
		len(r.Env) != 3 || r.Env[0] != "A=from-file" || r.Env[2] != "B=env" {
		t.Errorf("stdio: %+v", r)
	}
	s = Server{Name: "r", Source: "f", Format: ClaudeCode, Transport: "http", URL: "https://${H}/mcp", Headers: []Pair{{"Authorization", "Bearer ${TOKEN:-none}"}}}
	if r, err = s.Resolve(x); err != nil || r.URL != "https://host/mcp" || r.Headers[0] != "Authorization: Bearer none" {
		t.Errorf("remote: %+v, %v", r, err)
	}
	s.URL = "https://${MISSING}/"
	if _, err = s.Resolve(x); err == nil || err.Error() != `the server "r" of f: the variable ${MISSING} is not set and has no default (${MISSING:-DEFAULT})` {
		t.Errorf("unset: %v", err)
	}
	s = Server{Name: "e", Source: "f", Format: Cursor, Workspace: dir, Transport: "stdio", Command: "x", EnvFile: "missing.env"}
	if _, err = s.Resolve(x); err == nil {
		t.Errorf("a missing env file resolved")
	}
}
