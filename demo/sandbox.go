package demo

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// sandbox is the directory read_file serves. Opening goes through os.Root,
// so no path, symlink included, reaches outside it.
type sandbox struct {
	dir     string // absolute, symlinks resolved
	root    *os.Root
	created bool // New made it: Close removes it
}

// sampleFiles fill a sandbox that New creates.
var sampleFiles = map[string]string{
	"hello.txt":       "Hello from the mcpscope demo server.\n",
	"data.json":       `{"name":"mcpscope","transports":["stdio","http","ws","wt"],"stars":5}` + "\n",
	"notes/README.md": "# Notes\n\nread_file serves files below the sandbox root, and generated data of any size.\n",
}

// openSandbox opens dir, or creates a temporary sandbox when dir is empty.
func openSandbox(dir string) (*sandbox, error) {
	created := false
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mcpscope-demo-")
		if err != nil {
			return nil, fmt.Errorf("creating the sandbox directory: %w", err)
		}
		if err := writeSamples(tmp); err != nil {
			_ = os.RemoveAll(tmp)
			return nil, err
		}
		dir, created = tmp, true
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox root %q: %w", dir, err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("opening the sandbox root: %w", err)
	}
	return &sandbox{dir: abs, root: root, created: created}, nil
}

// writeSamples writes sampleFiles under dir.
func writeSamples(dir string) error {
	for name, body := range sampleFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("writing the sample files: %w", err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return fmt.Errorf("writing the sample files: %w", err)
		}
	}
	return nil
}

// close releases the root and removes a sandbox New created.
func (s *sandbox) close() error {
	err := s.root.Close()
	if s.created {
		err = errors.Join(err, os.RemoveAll(s.dir))
	}
	return err
}

// open opens a regular file by a path relative to the root. Every refusal
// is a -32602 error that says why.
func (s *sandbox) open(name string) (*os.File, int64, error) {
	clean, err := s.check(name)
	if err != nil {
		return nil, 0, err
	}
	f, err := s.root.Open(clean)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, invalidParams("no file %q in the sandbox root", name)
		}
		return nil, 0, invalidParams("path %q cannot be opened inside the sandbox root: %v", name, err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, 0, invalidParams("path %q is not a regular file", name)
	}
	return f, st.Size(), nil
}

// check refuses absolute paths, ".." and symlinks that lead out of the root,
// and returns the cleaned relative path.
func (s *sandbox) check(name string) (string, error) {
	slashed := filepath.ToSlash(name)
	switch {
	case name == "":
		return "", invalidParams("read_file needs a path relative to the sandbox root, or a size")
	case strings.ContainsRune(name, 0):
		return "", invalidParams("path %q holds a NUL byte", name)
	case filepath.IsAbs(name) || path.IsAbs(slashed) || filepath.VolumeName(name) != "":
		return "", invalidParams("path %q is absolute; give a path relative to the sandbox root", name)
	}
	for _, part := range strings.Split(slashed, "/") {
		if part == ".." {
			return "", invalidParams("path %q leaves the sandbox root (path traversal refused)", name)
		}
	}
	clean := path.Clean(slashed)
	resolved, err := filepath.EvalSymlinks(filepath.Join(s.dir, filepath.FromSlash(clean)))
	if err == nil {
		rel, rerr := filepath.Rel(s.dir, resolved)
		if rerr != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", invalidParams("path %q leads outside the sandbox root through a symlink (refused)", name)
		}
	}
	return clean, nil
}

// mimeType guesses a media type from a file name.
func mimeType(name string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
