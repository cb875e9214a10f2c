package theme

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// colourLiteral is how a colour is spelt in Go source: a lipgloss colour
// from a string, an ANSI colour number, or an RGBA literal of constants
// (an RGBA computed from an image's pixels names no colour).
var colourLiteral = regexp.MustCompile(`lipgloss\.(Color|ANSIColor)\(|ansi\.(BasicColor|IndexedColor)\(|color\.(RGBA|NRGBA)\{(\s*([RGBA]\s*:\s*)?(0[xX][0-9a-fA-F]+|[0-9]+)\s*,?)*\s*\}`)

// No code outside this package names a colour: every colour mcpscope
// paints with comes from the palette.
func TestNoColourOutsideTheTheme(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "testkit": // test support paints nothing
				return filepath.SkipDir
			}
			if path == here {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := colourLiteral.FindIndex(src); loc != nil {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s names a colour (%s): take it from internal/app/theme", rel, src[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// moduleRoot is the nearest folder above the test's directory that holds
// go.mod, wherever this package sits in the tree.
func moduleRoot() (string, error) {
	dir, err := filepath.Abs(".")
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", os.ErrNotExist
		}
		dir = up
	}
}
