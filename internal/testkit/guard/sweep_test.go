package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitCalls are the calls whose duration argument (at the index given) is
// a wait of the calling test.
var waitCalls = map[string]int{
	"time.After":          0,
	"time.NewTimer":       0,
	"time.Sleep":          0,
	"context.WithTimeout": 1,
}

// limitFields are the fields of the session's and the transports' options
// that limit how long a run waits.
var limitFields = map[string]bool{"Timeout": true, "HardTimeout": true, "ShutdownGrace": true, "CancelGrace": true}

// units are the time package's duration constants.
var units = map[string]time.Duration{
	"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond, "Millisecond": time.Millisecond,
	"Second": time.Second, "Minute": time.Minute, "Hour": time.Hour,
}

// TestNoWaitPastRun: no test of mcpscope's default run waits longer than
// Run in one go. Checked in every test file, and every file of the
// harnesses under internal/testkit: each time.After, time.NewTimer,
// time.Sleep and context.WithTimeout whose duration is a literal like
// 2*time.Minute; each literal --timeout or --max-time passed to mcpscope;
// each duration constant; and each session or transport limit (Timeout,
// HardTimeout, ShutdownGrace, CancelGrace) set to a literal, unless a
// comment on its line or the one above says it is "not a wait" (a value
// under test that no wait reaches). The benchmarks of bench/ are an
// explicit slow set and left out.
func TestNoWaitPastRun(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := sweptFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d files to check under %s: is the walk looking in the module?", len(files), root)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if err := sweepFile(t, fset, path); err != nil {
			t.Fatal(err)
		}
	}
}

// sweptFiles lists the test files under root, and the Go files of the
// harnesses under internal/testkit, leaving out testdata, bench and
// hidden directories.
func sweptFiles(root string) ([]string, error) {
	harness := filepath.Join("internal", "testkit") + string(filepath.Separator)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.IsDir() && rel != "." && (d.Name() == "testdata" || d.Name() == "node_modules" || rel == "bench" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(path, "_test.go") || strings.HasPrefix(rel, harness) && strings.HasSuffix(path, ".go")):
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

// sweepFile fails the test for each wait or limit of the file at path
// past Run.
func sweepFile(t *testing.T, fset *token.FileSet, path string) error {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return err
	}
	lines := strings.Split(string(src), "\n")
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			checkFlags(t, fset, n.Elts)
		case *ast.CallExpr:
			checkFlags(t, fset, n.Args)
			checkCall(t, fset, n)
		case *ast.ValueSpec:
			checkFlags(t, fset, n.Values)
			for _, v := range n.Values {
				checkLimit(t, fset, "a constant", v)
			}
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && limitFields[k.Name] && !notAWait(lines, fset.Position(n.Pos()).Line) {
				checkLimit(t, fset, k.Name, n.Value)
			}
		}
		return true
	})
	return nil
}

// checkCall fails the test if call is one of waitCalls waiting a literal
// duration past Run.
func checkCall(t *testing.T, fset *token.FileSet, call *ast.CallExpr) {
	t.Helper()
	name := selectorName(call.Fun)
	arg, ok := waitCalls[name]
	if !ok || arg >= len(call.Args) {
		return
	}
	if d, ok := duration(call.Args[arg]); ok && d > Run {
		t.Errorf("%s: %s waits %s, past guard.Run (%s): bound it by guard.Hang or guard.Run", fset.Position(call.Pos()), name, d, Run)
	}
}

// notAWait reports whether the line (1-based) or the one above it says,
// in a comment, that its limit is "not a wait": a value under test that no
// wait of the test reaches.
func notAWait(lines []string, line int) bool {
	for _, l := range lines[max(line-2, 0):min(line, len(lines))] {
		if _, c, ok := strings.Cut(l, "//"); ok && strings.Contains(c, "not a wait") {
			return true
		}
	}
	return false
}

// checkLimit fails the test for a literal duration past Run given as what.
func checkLimit(t *testing.T, fset *token.FileSet, what string, e ast.Expr) {
	t.Helper()
	if d, ok := duration(e); ok && d > Run {
		t.Errorf("%s: %s of %s keeps the run going past guard.Run (%s): use guard.Run where a limit must stay out of the way",
			fset.Position(e.Pos()), what, d, Run)
	}
}

// checkFlags fails the test for a literal --timeout or --max-time past Run
// among args, given as "--timeout", "10m" or as "--timeout=10m".
func checkFlags(t *testing.T, fset *token.FileSet, args []ast.Expr) {
	t.Helper()
	for i, a := range args {
		s, ok := stringLit(a)
		if !ok {
			continue
		}
		name, value, joined := strings.Cut(s, "=")
		if name != "--timeout" && name != "--max-time" {
			continue
		}
		if !joined && i+1 < len(args) {
			value, _ = stringLit(args[i+1])
		}
		if d, err := time.ParseDuration(value); err == nil && d > Run {
			t.Errorf("%s: %s %s keeps the run going past guard.Run (%s): pass guard.Run.String() where a limit must stay out of the way",
				fset.Position(a.Pos()), name, value, Run)
		}
	}
}

// stringLit returns the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// selectorName returns "pkg.Name" for a call of pkg.Name, else "".
func selectorName(e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return pkg.Name + "." + sel.Sel.Name
}

// duration evaluates a literal duration: integer literals and the time
// package's units, multiplied, added and parenthesized. Anything else (a
// named constant, a variable) is not a literal and reports false.
func duration(e ast.Expr) (time.Duration, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.INT {
			return 0, false
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(e.Value, "_", ""), 0, 64)
		return time.Duration(n), err == nil
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "time" {
			u, ok := units[e.Sel.Name]
			return u, ok
		}
	case *ast.ParenExpr:
		return duration(e.X)
	case *ast.BinaryExpr:
		a, okA := duration(e.X)
		b, okB := duration(e.Y)
		if !okA || !okB {
			return 0, false
		}
		switch e.Op {
		case token.MUL:
			return a * b, true
		case token.ADD:
			return a + b, true
		}
	}
	return 0, false
}
