package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/internal/app/wrap"
)

// wrapHome makes a home of the test's own (HOME, the config folders, the
// state directory where backups go, the project as current directory)
// with the files of fixtures, and makes wrap write fakeMcpscope.
func wrapHome(t *testing.T, fixtures func(home string) []wrapFixture) (string, []wrapFixture) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("APPDATA", filepath.Join(home, "AppData"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".state"))
	project := filepath.Join(home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	oldWd, oldExe := workingDir, mcpscopeExecutable
	workingDir = func() (string, error) { return project, nil }
	mcpscopeExecutable = func() (string, error) { return fakeMcpscope, nil }
	t.Cleanup(func() { workingDir, mcpscopeExecutable = oldWd, oldExe })
	var fs []wrapFixture
	if fixtures != nil {
		fs = fixtures(home)
	}
	for _, f := range fs {
		writeFile(t, filepath.Join(home, f.rel), f.text)
	}
	return home, fs
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o640); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// rawEntry decodes the entry name of the config file data as written: its
// command and args, and its type.
func rawEntry(t *testing.T, data []byte, host mcpconfig.Format, name, cwd string) (command string, args []string, typ string) {
	t.Helper()
	span, err := mcpconfig.FindEntry(data, host, name, cwd)
	if err != nil {
		t.Fatalf("finding %s: %v", name, err)
	}
	var e struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	if err := json.Unmarshal(mcpconfig.StripJSONC(data[span.Start:span.End]), &e); err != nil {
		t.Fatalf("the entry %s: %v\n%s", name, err, data[span.Start:span.End])
	}
	return e.Command, e.Args, e.Type
}

// For every host's file, wrap rewrites the entry to run `mcpscope proxy
// --name NAME -- original…` (or the bridge to its URL), the file still
// loads, mcpscope servers marks it wrapped and shows the original server,
// only the entry's bytes changed, the mode is kept, and unwrap restores
// the file byte for byte and removes the backup.
func TestWrapUnwrapEveryHostFormat(t *testing.T) {
	home, fixtures := wrapHome(t, wrapFixtures)
	project := filepath.Join(home, "project")
	for _, f := range fixtures {
		path := filepath.Join(home, f.rel)
		original := []byte(f.text)
		names := make([]string, 0, len(f.entries))
		for n := range f.entries {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, name := range names {
			t.Run(f.host+"/"+name, func(t *testing.T) {
				r := mcpscope(t, "wrap", name)
				r.mustExit(t, ExitOK)
				if !strings.Contains(r.stdout, "mcpscope attach "+name) {
					t.Errorf("wrap does not say how to watch it:\n%s", r.stdout)
				}
				wrapped := readFile(t, path)
				host := mcpconfig.Format(f.host)
				cmd, args, typ := rawEntry(t, wrapped, host, name, project)
				want := append([]string{"proxy", "--name", name}, f.entries[name]...)
				if cmd != fakeMcpscope || !slices.Equal(args, want) {
					t.Fatalf("the wrapped entry runs %s %q, want %s %q\n%s", cmd, args, fakeMcpscope, want, wrapped)
				}
				if typ != "" && typ != "stdio" || f.host == "vscode" && typ != "stdio" {
					t.Errorf("the wrapped entry's type is %q, want stdio", typ)
				}
				span, _ := mcpconfig.FindEntry(original, host, name, project)
				end := span.End + len(wrapped) - len(original)
				if !bytes.Equal(wrapped[:span.Start], original[:span.Start]) || !bytes.Equal(wrapped[end:], original[span.End:]) {
					t.Errorf("wrap changed bytes outside the entry:\n%s", wrapped)
				}
				if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
					t.Errorf("the file's mode is not kept: %v %v", st.Mode(), err)
				}
				servers, errs := mcpconfig.LoadFile(path, project)
				if len(errs) > 0 {
					t.Fatalf("the wrapped file does not load: %v\n%s", errs, wrapped)
				}
				checkListedWrapped(t, servers, name, f.entries[name])

				r = mcpscope(t, "servers", "--json")
				r.mustExit(t, ExitOK)
				if !strings.Contains(r.stdout, `"proxy":"`+name+`"`) {
					t.Errorf("servers --json does not mark %s wrapped:\n%s", name, r.stdout)
				}

				r = mcpscope(t, "unwrap", name)
				r.mustExit(t, ExitOK)
				if got := readFile(t, path); !bytes.Equal(got, original) {
					t.Fatalf("unwrap did not restore the file byte for byte:\n%q\nwant\n%q", got, original)
				}
				if b, _ := wrap.Backups(filepath.Join(home, ".state", "mcpscope", "wrapped"), ""); len(b) != 0 {
					t.Errorf("unwrap left %d backups", len(b))
				}
			})
		}
	}
}

// checkListedWrapped finds name among servers, wrapped, running the
// original server of want (the proxy's arguments after --name NAME).
func checkListedWrapped(t *testing.T, servers []mcpconfig.Server, name string, want []string) {
	t.Helper()
	for _, s := range servers {
		if s.Name != name {
			continue
		}
		if !s.Wrapped || s.ProxyName != name {
			t.Errorf("%s is not seen as wrapped: %+v", name, s)
		}
		if want[0] == "--" {
			if got := append([]string{s.Command}, s.Args...); !slices.Equal(got, want[1:]) {
				t.Errorf("%s is seen to run %q, want the original %q", name, got, want[1:])
			}
		} else if s.URL != want[len(want)-1] || s.Command != "" {
			t.Errorf("%s is seen to reach %q (command %q), want the original %s", name, s.URL, s.Command, want[len(want)-1])
		}
		return
	}
	t.Errorf("%s is not in the wrapped file", name)
}
