package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is mcpscope's module path; the layering rules below name
// packages relative to it.
const module = "github.com/mcpscope/mcpscope"

// TestLayering holds the import graph to the house's layering: the UI
// reaches no transport, the transports reach neither the recordings nor
// the doctor nor one another, the protocol decoders depend on nothing of
// mcpscope's but themselves, the engine reaches no transport, and the
// input widgets never import the UI.
func TestLayering(t *testing.T) {
	deps := listDeps(t)
	rules := []struct {
		from   string // package pattern, relative to the module: "ui/..." or "client"
		banned func(from, dep string) bool
		why    string
	}{
		{"ui/...", under("transports"), "the UI shows a connection through client/, never a transport"},
		{"ui/...", named("doctor"), "the UI renders the doctor's checklist, not its probes"},
		{"ui/...", named("oauth"), "the UI shows the OAuth flow's checklist; cli runs the flow"},
		{"client", under("transports"), "the engine learns what a transport does from its declared description"},
		{"transports/...", under("recordings"), "transports move bytes; recording is the engine's business"},
		{"transports/...", named("doctor"), "the doctor's probes use transports, not the other way"},
		{"transports/...", named("oauth"), "a transport takes a bearer.Authorizer; the OAuth flow is wired in cli"},
		{"transports/...", otherTransport, "no transport depends on another"},
		{"proto/...", engine, "proto decodes bytes it is handed; it knows no connection, engine or screen"},
		{"prompts/...", under("ui"), "input widgets never import the UI"},
		{"capture/...", engine, "the capture store holds Frames; it knows no connection, engine or screen"},
	}
	for _, r := range rules {
		for from, ds := range deps {
			if !match(r.from, from) {
				continue
			}
			for _, d := range ds {
				if r.banned(from, d) {
					t.Errorf("%s depends on %s: %s", from, d, r.why)
				}
			}
		}
	}
}

// listDeps maps every non-test package of the module (relative path, ""
// for the root) to the module packages it depends on, directly or not.
func listDeps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		var own []string
		for _, d := range f[1:] {
			if rel, ok := relative(d); ok {
				own = append(own, rel)
			}
		}
		from, _ := relative(f[0])
		deps[from] = own
	}
	if len(deps) < 10 {
		t.Fatalf("go list named %d packages; the module has more", len(deps))
	}
	return deps
}

// relative returns p relative to the module, and whether p is in it.
func relative(p string) (string, bool) {
	if p == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(p, module+"/")
	return rel, ok
}

// match reports whether the relative package p matches pattern, which is
// a package path or a path followed by "/...".
func match(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// under bans the packages at and below root.
func under(root string) func(string, string) bool {
	return func(_, dep string) bool { return match(root+"/...", dep) }
}

// engine bans the packages that connect, drive or show a session: the
// engine, the transports, the recordings, the screens and the commands.
func engine(_, dep string) bool {
	for _, root := range []string{"client", "transports", "recordings", "ui", "prompts", "cli", "demo"} {
		if match(root+"/...", dep) {
			return true
		}
	}
	return false
}

// named bans every package whose last path element is name.
func named(name string) func(string, string) bool {
	return func(_, dep string) bool { return path.Base(dep) == name }
}

// otherTransport bans, for a package of one transport, every package of
// another; transports/internal/... is shared by all.
func otherTransport(from, dep string) bool {
	own, dt := transportOf(from), transportOf(dep)
	return slices.Contains(transportNames, own) && slices.Contains(transportNames, dt) && dt != own
}

// transportNames are the transports under transports/; the packages beside
// them (internal/, httpconf) are shared helpers, not transports.
var transportNames = []string{"http", "ws", "webtransport", "stdio"}

// transportOf names the transport a relative package belongs to:
// "http" for transports/http/..., "" outside transports/.
func transportOf(p string) string {
	rest, ok := strings.CutPrefix(p, "transports/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// TestNoAssembly: mcpscope is plain Go.
func TestNoAssembly(t *testing.T) {
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".s") || strings.HasSuffix(p, ".S")) {
			t.Errorf("%s: assembly; write it in Go", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestProtoReadsNoStream: proto/ decodes the bytes it is handed; reading
// them from a connection or a file belongs to the transports and the
// recordings.
func TestProtoReadsNoStream(t *testing.T) {
	reading := map[string]bool{"Reader": true, "ReadFull": true, "ReadAll": true, "ReadAtLeast": true, "ByteReader": true, "LimitReader": true}
	fset := token.NewFileSet()
	err := filepath.WalkDir("proto", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"bufio"` {
				t.Errorf("%s imports bufio: proto decodes bytes, it reads no stream", p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == "io" && reading[s.Sel.Name] {
					t.Errorf("%s: io.%s: proto decodes bytes it is handed, it reads no stream", fset.Position(s.Pos()), s.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
