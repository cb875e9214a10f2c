package mcp

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// ParseRoot reads a root as --root and the roots editor take it: "~" is
// the home directory, and only a scheme with "://" makes a URI ("proj:v2"
// is a local path, as --root reads it).
func TestParseRoot(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	file := func(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }
	cases := []struct{ in, uri, name string }{
		{"file:///srv/project", "file:///srv/project", "project"},
		{" https://example.com ", "https://example.com", ""},
		{"~/proj", file(filepath.Join(home, "proj")), "proj"},
		{"~", file(home), filepath.Base(home)},
		{"proj:v2", file(filepath.Join(wd, "proj:v2")), "proj:v2"},
	}
	for _, c := range cases {
		r, err := ParseRoot(c.in)
		if err != nil || r.URI != c.uri || r.Name != c.name {
			t.Errorf("ParseRoot(%q) = %+v, %v; want %s (%s)", c.in, r, err, c.uri, c.name)
		}
	}
	if _, err := ParseRoot("  "); !errors.Is(err, ErrNoRoot) {
		t.Errorf("ParseRoot(blank) = %v", err)
	}
	if _, err := ParseRoot("file://%zz"); err == nil {
		t.Error("ParseRoot(file://%zz) kept a malformed URI")
	}
}
