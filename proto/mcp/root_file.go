package mcp

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// FileRoot is the root of a local path: its absolute file:// URI, named
// after its last element (--root and the roots editor take a path so).
func FileRoot(path string) (Root, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Root{}, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return Root{URI: u.String(), Name: filepath.Base(abs)}, nil
}

// rootURI is the shape of a root given as a URI: a scheme and "://",
// compiled on first use.
var rootURI = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`) })

// ErrNoRoot is ParseRoot's error for an empty value.
var ErrNoRoot = errors.New("a root needs a URI such as file:///srv/project, or a local path")

// ParseRoot reads a root as --root and the roots editor take it: a value
// with a scheme and "://" is a URI, kept as given and named after its last
// path element; anything else is a local path ("~" the home directory),
// which becomes its absolute file:// URI, named after its last element.
func ParseRoot(v string) (Root, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return Root{}, ErrNoRoot
	case rootURI().MatchString(v):
		u, err := url.Parse(v)
		if err != nil {
			return Root{}, fmt.Errorf("%q is not a URI: %w", v, err)
		}
		name := path.Base(u.Path)
		if name == "." || name == "/" {
			name = ""
		}
		return Root{URI: u.String(), Name: name}, nil
	}
	p, err := expandHome(v)
	if err != nil {
		return Root{}, fmt.Errorf("%q: %w", v, err)
	}
	r, err := FileRoot(p)
	if err != nil {
		return Root{}, fmt.Errorf("%q: %w", v, err)
	}
	return r, nil
}

// expandHome replaces a leading "~" of a path (alone or before a
// separator) with the home directory, as a shell does.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, p[1:]), nil
}
