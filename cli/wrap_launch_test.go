package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// mcpServersDoc is a config file with one stdio server.
func mcpServersDoc(t *testing.T, name string, argv []string, env map[string]string) string {
	t.Helper()
	entry := map[string]any{"command": argv[0], "args": argv[1:]}
	if env != nil {
		entry["env"] = env
	}
	data, err := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{name: entry}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Connecting to a wrapped entry by NAME reaches the original server, not
// the proxy (whose mcpscope here does not exist), and mcpscope servers
// shows the original command with a note on how to watch the host.
func TestWrapConnectByNameReachesTheOriginal(t *testing.T) {
	argv, env := stubArgv(t, "plain")
	k, v, _ := strings.Cut(env, "=")
	wrapHome(t, func(string) []wrapFixture {
		return []wrapFixture{{rel: ".cursor/mcp.json", text: mcpServersDoc(t, "stub", argv, map[string]string{k: v})}}
	})
	mcpscope(t, "wrap", "stub").mustExit(t, ExitOK)
	r := mcpscope(t, "servers")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "wrapped: runs through mcpscope proxy --name stub; mcpscope attach stub") || strings.Contains(r.stdout, fakeMcpscope) {
		t.Errorf("servers does not show the original server, marked wrapped:\n%s", r.stdout)
	}
	r = mcpscope(t, "tools", "stub")
	r.mustExit(t, ExitOK)
	if !toolNames(t, r.stdout)["only"] {
		t.Errorf("tools stub did not reach the stub server:\n%s", r.stdout)
	}
}

// The wrapped entry launches through the proxy: `mcpscope wrap` (the
// built binary) rewrites a Claude Desktop entry of the TypeScript
// everything server, then the entry's command line is run as a host runs
// it, and initialize and tools/list on its stdin get their answers.
func TestWrapLaunchesThroughTheProxy(t *testing.T) {
	bin := builtBinary(t)
	home := t.TempDir()
	path := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	writeFile(t, path, mcpServersDoc(t, "everything", peertest.TSEverything(t, "stdio"), nil))
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "XDG_STATE_HOME="+filepath.Join(home, ".state"), "XDG_RUNTIME_DIR="+t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	wrapCmd := exec.CommandContext(ctx, bin, "wrap", "everything")
	wrapCmd.Env, wrapCmd.Dir = env, home
	if out, err := wrapCmd.CombinedOutput(); err != nil {
		t.Fatalf("mcpscope wrap: %v\n%s", err, out)
	}
	servers, errs := mcpconfig.LoadFile(path, home)
	if len(errs) > 0 || len(servers) != 1 || !servers[0].Wrapped {
		t.Fatalf("the wrapped file: %+v %v", servers, errs)
	}
	command, args, _ := rawEntry(t, readFile(t, path), mcpconfig.ClaudeDesktop, "everything", home)
	if command != bin || len(args) < 4 || strings.Join(args[:4], " ") != "proxy --name everything --" {
		t.Fatalf("the wrapped entry runs %s %q", command, args)
	}

	host := exec.CommandContext(ctx, command, args...)
	host.Env, host.Dir = env, home
	var stderr strings.Builder
	host.Stderr = &stderr
	stdin, err := host.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		if err := host.Wait(); err != nil && ctx.Err() == nil {
			t.Logf("the proxy ended: %v", err)
		}
	}()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wrap-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	} {
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatalf("writing to the wrapped entry: %v\nits stderr:\n%s", err, stderr.String())
		}
	}
	answers := map[string]json.RawMessage{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for len(answers) < 2 && sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == "" && len(m.Result) > 0 {
			answers[string(m.ID)] = m.Result
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("no answers within %s through the wrapped entry; its stderr:\n%s", guard.Run, stderr.String())
	}
	if len(answers) < 2 {
		t.Fatalf("the wrapped entry ended with %d of 2 answers (is mcpscope proxy -- CMD built?); its stderr:\n%s", len(answers), stderr.String())
	}
	if !strings.Contains(string(answers["1"]), `"serverInfo"`) || !strings.Contains(string(answers["2"]), `"name":"echo"`) {
		t.Fatalf("unexpected answers: initialize %s, tools/list %.300s", answers["1"], answers["2"])
	}
}
