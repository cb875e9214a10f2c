package main

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// module is the import path of mcpscope's packages.
const module = "github.com/mcpscope/mcpscope"

// transportPkgs are the transports: none links another.
var transportPkgs = []string{"transports/http", "transports/ws", "transports/webtransport", "transports/stdio"}

// linked returns the mcpscope packages pkgs link (themselves included),
// read from the import lines of their non-test files for this platform.
func linked(t *testing.T, pkgs ...string) map[string]bool {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var visit func(rel string)
	visit = func(rel string) {
		if seen[rel] {
			return
		}
		seen[rel] = true
		p, err := build.ImportDir(filepath.Join(root, filepath.FromSlash(rel)), 0)
		if err != nil {
			t.Fatalf("reading %s: %v", rel, err)
		}
		for _, imp := range p.Imports {
			if sub, ok := strings.CutPrefix(imp, module+"/"); ok {
				visit(sub)
			}
		}
	}
	for _, p := range pkgs {
		visit(p)
	}
	return seen
}

// under returns dir and the packages below it, testdata left out.
func under(t *testing.T, dir string) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(path, 0); err == nil {
			pkgs = append(pkgs, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// forbidden returns the packages of deps that match one of the prefixes.
func forbidden(deps map[string]bool, prefixes ...string) []string {
	var bad []string
	for d := range deps {
		for _, p := range prefixes {
			if d == p || strings.HasPrefix(d, p+"/") {
				bad = append(bad, d)
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestTransportsLinkOnlyTheWire: a transport moves bytes; it links
// neither the recordings, the doctor, the OAuth flow, nor another
// transport, even through another package.
func TestTransportsLinkOnlyTheWire(t *testing.T) {
	for _, tr := range transportPkgs {
		others := []string{"recordings", "internal/doctor", "internal/oauth"}
		for _, o := range transportPkgs {
			if o != tr {
				others = append(others, o)
			}
		}
		if bad := forbidden(linked(t, tr), others...); len(bad) > 0 {
			t.Errorf("%s links %s", tr, strings.Join(bad, ", "))
		}
	}
}

// TestUILinksNoTransport: the TUI learns of a connection through client/
// and renders the doctor's checklist without its probes.
func TestUILinksNoTransport(t *testing.T) {
	if bad := forbidden(linked(t, under(t, "ui")...), "transports", "internal/doctor", "internal/oauth"); len(bad) > 0 {
		t.Errorf("ui links %s", strings.Join(bad, ", "))
	}
}
