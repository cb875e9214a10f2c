// Package goldentest compares rendered text with golden files under
// testdata/, for the pane and widget renders of mcpscope's tests. Run a
// package's tests with -update to rewrite its golden files.
package goldentest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/exp/golden" // registers -update
)

// updating reports whether the tests run with -update. The flag is the one
// charmbracelet/x/exp/golden registers (teatest imports it too), so both
// kinds of golden file follow the same switch.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Plain strips ANSI escapes and the trailing spaces of every line.
func Plain(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Check compares got with testdata/name.golden, or rewrites the file when
// the tests run with -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden file (run with -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", name, path, got, want)
	}
}

// CheckPlain compares got, ANSI stripped and with trailing spaces cut
// (Plain), and a final newline with testdata/name.golden.
func CheckPlain(t testing.TB, name, got string) {
	t.Helper()
	Check(t, name, Plain(got)+"\n")
}
