package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// cursorFile is a Cursor user file with two servers, for the refusals.
const cursorFile = `{
  "mcpServers": {
    "alpha": { "command": "alpha-server", "args": ["--port", "0"] },
    "beta": { "command": "beta-server" }
  }
}
`

// cursorFixture gives a home only the Cursor file above.
func cursorFixture(string) []wrapFixture {
	return []wrapFixture{{host: "cursor", rel: ".cursor/mcp.json", text: cursorFile}}
}

// mustSay checks that a refusal exits 2 with a message holding want and
// leaves the file as it was.
func mustSay(t *testing.T, r result, want, path string, before []byte) {
	t.Helper()
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, want) {
		t.Errorf("the message does not say %q:\n%s", want, r.stderr)
	}
	if got := readFile(t, path); !bytes.Equal(got, before) {
		t.Errorf("the file changed:\n%s", got)
	}
}

// Wrapping twice says so and leaves the file as the first wrap wrote it.
func TestWrapTwiceSaysSo(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	wrapped := readFile(t, path)
	mustSay(t, mcpscope(t, "wrap", "alpha"), `"alpha" is already wrapped in ~/.cursor/mcp.json; mcpscope unwrap alpha restores it`, path, wrapped)
}

// Unwrapping an entry that is not wrapped, or a name no file has, says so.
func TestUnwrapNotWrappedSaysSo(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mustSay(t, mcpscope(t, "unwrap", "beta"), `"beta" is not wrapped: ~/.cursor/mcp.json runs it directly; nothing to undo`, path, []byte(cursorFile))
	mustSay(t, mcpscope(t, "unwrap", "gamma"), `"gamma" is not wrapped`, path, []byte(cursorFile))
}

// A file changed since wrap elsewhere than the entry keeps its changes:
// only the entry's original text comes back. Two entries wrapped in turn
// unwrap in any order.
func TestUnwrapChangedFileRestoresOnlyTheEntry(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	edited := strings.Replace(string(readFile(t, path)), `"beta-server"`, `"beta-server-2"`, 1)
	writeFile(t, path, edited)
	r := mcpscope(t, "unwrap", "alpha")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "only the entry's original text is back") {
		t.Errorf("unwrap does not say it kept the other changes:\n%s", r.stdout)
	}
	want := strings.Replace(cursorFile, `"beta-server"`, `"beta-server-2"`, 1)
	if got := readFile(t, path); string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}

	writeFile(t, path, cursorFile)
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	mcpscope(t, "wrap", "beta").mustExit(t, ExitOK)
	mcpscope(t, "unwrap", "alpha").mustExit(t, ExitOK)
	mcpscope(t, "unwrap", "beta").mustExit(t, ExitOK)
	if got := readFile(t, path); string(got) != cursorFile {
		t.Fatalf("wrap alpha, wrap beta, unwrap alpha, unwrap beta gave\n%s", got)
	}
}

// A host that rewrites the file in its own layout (as Claude Code does
// with ~/.claude.json) changes the entry's text but not its value: unwrap
// puts the original entry back and says the entry was laid out anew.
func TestUnwrapReformattedFile(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	var re bytes.Buffer
	if err := json.Indent(&re, readFile(t, path), "", "\t"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, re.String())
	r := mcpscope(t, "unwrap", "alpha")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "laid out anew") {
		t.Errorf("unwrap does not say the entry was laid out anew:\n%s", r.stdout)
	}
	servers, errs := mcpconfig.LoadFile(path, home)
	if len(errs) > 0 || len(servers) != 2 || servers[0].Wrapped || servers[0].Command != "alpha-server" {
		t.Fatalf("after unwrap: %+v %v\n%s", servers, errs, readFile(t, path))
	}
}

// An entry changed since wrap is not overwritten: unwrap refuses, shows a
// diff of the entry and leaves the file; --force writes the original back
// and keeps the changed file beside it.
func TestUnwrapChangedEntryRefusedThenForced(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	changed := []byte(strings.Replace(string(readFile(t, path)), `"--port", "0"`, `"--port", "9"`, 1))
	writeFile(t, path, string(changed))
	r := mcpscope(t, "unwrap", "alpha")
	mustSay(t, r, `the entry "alpha" in ~/.cursor/mcp.json changed since wrap`, path, changed)
	for _, want := range []string{"--- ~/.cursor/mcp.json (the entry as wrap wrote it)", "+++ ~/.cursor/mcp.json (the entry now)", "@@ -3,1 +3,1 @@", `-`, `"--port", "0"]`, `+`, `"--port", "9"]`, "--force"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal does not show %q:\n%s", want, r.stderr)
		}
	}
	r = mcpscope(t, "unwrap", "alpha", "--force")
	r.mustExit(t, ExitOK)
	if got := readFile(t, path); string(got) != cursorFile {
		t.Fatalf("--force did not restore the original:\n%s", got)
	}
	kept, _ := filepath.Glob(path + ".unwrap-*")
	if len(kept) != 1 || !bytes.Equal(readFile(t, kept[0]), changed) {
		t.Fatalf("--force kept %v, want one copy of the changed file", kept)
	}
}

// A missing file and a file that does not parse are clear errors, and the
// file is left as it was; unwrap of a file removed since wrap says so.
func TestWrapMissingOrInvalidFile(t *testing.T) {
	home, _ := wrapHome(t, nil)
	missing := filepath.Join(home, "nowhere", "mcp.json")
	r := mcpscope(t, "wrap", "alpha", "--config", missing)
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, "nowhere/mcp.json") || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("the missing file is not named:\n%s", r.stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("wrap created the missing file")
	}
	path := filepath.Join(home, ".cursor", "mcp.json")
	broken := strings.Replace(cursorFile, `"beta": {`, `"beta" {`, 1)
	writeFile(t, path, broken)
	mustSay(t, mcpscope(t, "wrap", "alpha"), "mcp.json:4:12", path, []byte(broken))

	writeFile(t, path, cursorFile)
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	r = mcpscope(t, "unwrap", "alpha")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `"alpha" is no longer in`) {
		t.Errorf("unwrap of a removed file does not say so:\n%s", r.stderr)
	}
}

// A name in two hosts' files is a question: the message lists both and
// --host picks one.
func TestWrapSameNameInTwoFiles(t *testing.T) {
	home, _ := wrapHome(t, func(string) []wrapFixture {
		return []wrapFixture{
			{rel: ".cursor/mcp.json", text: cursorFile},
			{rel: ".codeium/windsurf/mcp_config.json", text: `{"mcpServers":{"alpha":{"command":"alpha-server"}}}`},
		}
	})
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	r := mcpscope(t, "wrap", "alpha")
	mustSay(t, r, "is in 2 config files", cursor, []byte(cursorFile))
	for _, want := range []string{"~/.cursor/mcp.json (cursor)", "~/.codeium/windsurf/mcp_config.json (windsurf)", "--host"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the message does not name %q:\n%s", want, r.stderr)
		}
	}
	mcpscope(t, "wrap", "alpha", "--host", "windsurf").mustExit(t, ExitOK)
	if got := readFile(t, cursor); string(got) != cursorFile {
		t.Errorf("--host windsurf changed Cursor's file")
	}
	mcpscope(t, "unwrap", "alpha").mustExit(t, ExitOK)
}

// wrap --faults FILE makes the wrapped entry's proxy apply FILE (its
// absolute path); a missing FILE is refused before the file is touched.
func TestWrapWithFaults(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mustSay(t, mcpscope(t, "wrap", "alpha", "--faults", filepath.Join(home, "none.yaml")), "--faults", path, []byte(cursorFile))
	faults := filepath.Join(home, "faults.yaml")
	writeFile(t, faults, "faults: []\n")
	mcpscope(t, "wrap", "alpha", "--faults", faults).mustExit(t, ExitOK)
	_, args, _ := rawEntry(t, readFile(t, path), mcpconfig.Cursor, "alpha", home)
	want := []string{"proxy", "--name", "alpha", "--faults", faults, "--", "alpha-server", "--port", "0"}
	if strings.Join(args, " ") != strings.Join(want, " ") {
		t.Errorf("the wrapped entry runs %q, want %q", args, want)
	}
	mcpscope(t, "unwrap", "alpha").mustExit(t, ExitOK)
	if got := readFile(t, path); string(got) != cursorFile {
		t.Errorf("unwrap gave\n%s", got)
	}
}

// A file that no longer parses since wrap is not written: unwrap says so
// and points at --force.
func TestUnwrapBrokenFileRefused(t *testing.T) {
	home, _ := wrapHome(t, cursorFixture)
	path := filepath.Join(home, ".cursor", "mcp.json")
	mcpscope(t, "wrap", "alpha").mustExit(t, ExitOK)
	broken := []byte(strings.Replace(string(readFile(t, path)), `"beta": {`, `"beta" {`, 1))
	writeFile(t, path, string(broken))
	mustSay(t, mcpscope(t, "unwrap", "alpha"), "does not read as a config file since wrap", path, broken)
	mcpscope(t, "unwrap", "alpha", "--force").mustExit(t, ExitOK)
	if got := readFile(t, path); string(got) != cursorFile {
		t.Errorf("--force gave\n%s", got)
	}
}

// A WebSocket entry is not wrapped (the bridge speaks HTTP and SSE): wrap
// says what to do instead and leaves the file.
func TestWrapWebSocketEntryRefused(t *testing.T) {
	const doc = `{"mcpServers": {"sock": {"url": "ws://127.0.0.1:9/ws"}}}`
	home, _ := wrapHome(t, func(string) []wrapFixture { return []wrapFixture{{rel: ".cursor/mcp.json", text: doc}} })
	mustSay(t, mcpscope(t, "wrap", "sock"), "mcpscope proxy --listen ADDR ws://127.0.0.1:9/ws", filepath.Join(home, ".cursor", "mcp.json"), []byte(doc))
}
