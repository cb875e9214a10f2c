package proto

import (
	"net/url"
	"path/filepath"
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
