package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// writeConfig writes a config file under the home configHome made.
func writeConfig(t *testing.T, path string, doc any) {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// toolNames returns the names in a `mcpscope tools` document.
func toolNames(t *testing.T, stdout string) map[string]bool {
	t.Helper()
	var doc struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not the tools JSON: %v\n%s", err, stdout)
	}
	names := map[string]bool{}
	for _, tool := range doc.Tools {
		names[tool.Name] = true
	}
	return names
}

// `mcpscope tools NAME` starts the Go SDK everything server that a VS Code
// project file names through ${env:…}, and lists its tools.
func TestServerByNameStdio(t *testing.T) {
	home := configHome(t)
	t.Setenv("GO_EVERYTHING", peertest.GoSDKEverything(t)[0])
	writeConfig(t, filepath.Join(home, "project", ".vscode", "mcp.json"), map[string]any{
		"servers": map[string]any{"go-everything": map[string]any{"type": "stdio", "command": "${env:GO_EVERYTHING}", "cwd": "${workspaceFolder}"}},
	})
	r := mcpscope(t, "tools", "go-everything")
	r.mustExit(t, ExitOK)
	if names := toolNames(t, r.stdout); !names["greet"] {
		t.Errorf("greet missing from %v", names)
	}
}

// A configured stdio server gets its env (the stub server runs only when
// its variable is set, from the config's env file and env) and an
// ${input:…} answered from MCPSCOPE_INPUT_….
func TestServerByNameEnvAndInput(t *testing.T) {
	home := configHome(t)
	argv, env := stubArgv(t, "noisy")
	k, v, _ := strings.Cut(env, "=")
	for name, mode := range map[string]string{"right.env": v, "wrong.env": "wrong"} {
		if err := os.WriteFile(filepath.Join(home, "project", name), []byte("# the stub's mode\n"+k+"="+mode+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeConfig(t, filepath.Join(home, "project", ".vscode", "mcp.json"), map[string]any{
		"inputs": []any{map[string]any{"type": "promptString", "id": "mode", "password": true}},
		"servers": map[string]any{
			"from-file":  map[string]any{"command": argv[0], "envFile": "${workspaceFolder}/right.env"},
			"from-input": map[string]any{"command": argv[0], "envFile": "wrong.env", "env": map[string]string{k: "${input:mode}"}},
		},
	})
	t.Setenv(inputEnvName("mode"), v)
	for _, name := range []string{"from-file", "from-input"} {
		r := mcpscope(t, "tools", name)
		r.mustExit(t, ExitOK)
		if names := toolNames(t, r.stdout); !names["only"] {
			t.Errorf("%s: the stub server did not answer: %q", name, r.stdout)
		}
	}
}

// `mcpscope tools NAME` reaches a Streamable HTTP peer the Claude Code
// user file names by URL, with the file's headers.
func TestServerByNameHTTP(t *testing.T) {
	home := configHome(t)
	p := peertest.StartGoSDKEverythingHTTP(t)
	writeConfig(t, filepath.Join(home, ".claude.json"), map[string]any{
		"mcpServers": map[string]any{"web": map[string]any{"type": "http", "url": p.URL, "headers": map[string]string{"X-From-Config": "yes", "X-Replaced": "config"}}},
	})
	rec := filepath.Join(t.TempDir(), "web.mcpscope")
	r := mcpscope(t, "tools", "--record", rec, "--header", "X-From-Line: 1", "--header", "X-Replaced: line", "web")
	r.mustExit(t, ExitOK)
	if names := toolNames(t, r.stdout); !names["greet"] {
		t.Errorf("greet missing from %v", names)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"X-From-Config: yes", "X-From-Line: 1", "X-Replaced: line"} {
		if !strings.Contains(string(data), h) {
			t.Errorf("the requests did not carry %q", h)
		}
	}
	if strings.Contains(string(data), "X-Replaced: config") {
		t.Errorf("--header did not replace the config's header of the same name")
	}
}

// `mcpscope NAME` opens the TUI connected to the configured server.
func TestServerByNameTUI(t *testing.T) {
	home := configHome(t)
	writeConfig(t, filepath.Join(home, "project", ".mcp.json"), map[string]any{
		"mcpServers": map[string]any{"everything": map[string]any{"command": peertest.GoSDKEverything(t)[0]}},
	})
	r := startTUI(t, "--no-record", legacy, "everything")
	r.waitFor(t, "MCP connected", "result · initialize", "go-sdk/everything")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// `mcpscope` without a TARGET opens the picker of configured servers;
// typing filters it and enter connects the TUI to the one chosen.
func TestServerPickerConnects(t *testing.T) {
	home := configHome(t)
	writeConfig(t, filepath.Join(home, "project", ".mcp.json"), map[string]any{
		"mcpServers": map[string]any{"everything": map[string]any{"command": peertest.GoSDKEverything(t)[0]}},
	})
	r := startTUI(t, "--no-record", legacy)
	r.waitFor(t, "MCP servers in the config files", "filesystem", "~/project/.mcp.json")
	if _, err := r.keys.Write([]byte("everyth")); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "> everyth")
	if _, err := r.keys.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "MCP connected", "result · initialize", "go-sdk/everything")
	// The picker's input reader, on a pipe rather than a terminal, may take
	// one more read after it ends: quit presses q again until the TUI quits.
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// Without any configured server, `mcpscope` says how to start (exit 2),
// not the whole help.
func TestNoServersSaysHowToStart(t *testing.T) {
	r := mcpscope(t)
	r.mustExit(t, ExitUsage)
	if strings.Contains(r.stdout+r.stderr, "Usage:") || !strings.Contains(r.stderr, "mcpscope demo") {
		t.Errorf("stdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
}

// A configured server's own secret header is masked in a recording like a
// --header one, and `mcpscope doctor NAME` walks to the configured server
// with its headers: an auth server that wants the configured token passes.
func TestConfiguredHeadersReachRecordingAndDoctor(t *testing.T) {
	home := configHome(t)
	token := "cfg-token-0123456789"
	p := peertest.StartGoSDKEverythingHTTP(t)
	writeConfig(t, filepath.Join(home, ".claude.json"), map[string]any{
		"mcpServers": map[string]any{"web": map[string]any{"type": "http", "url": p.URL, "headers": map[string]string{"X-Team-Key": token}}},
	})
	rec := filepath.Join(t.TempDir(), "web.mcpscope")
	mcpscope(t, "tools", "--record", rec, "web").mustExit(t, ExitOK)
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), token) {
		t.Error("the recording holds the configured server's token")
	}

	// An HTTP front that answers 401 without the configured token.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Team-Key") != token {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		// The proxy's transport may still hold the request body (its
		// check for the end, its close) when the server's answer comes
		// back. Without full duplex, net/http reads and closes the body
		// of an HTTP/1 request as the answer's head goes out; the
		// transport's next read of it then fails, it drops its
		// connection to the server, and the proxy cuts the answer it
		// was streaming (an SSE answer ends with unexpected EOF).
		if err := http.NewResponseController(w).EnableFullDuplex(); err != nil {
			t.Error(err)
		}
		u, _ := url.Parse(p.URL)
		httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host}).ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	u, _ := url.Parse(p.URL)
	writeConfig(t, filepath.Join(home, ".claude.json"), map[string]any{
		"mcpServers": map[string]any{"web": map[string]any{"type": "http", "url": front.URL + u.Path, "headers": map[string]string{"X-Team-Key": token}}},
	})
	if r := mcpscope(t, "doctor", "web"); r.code != ExitOK {
		t.Errorf("doctor web: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
