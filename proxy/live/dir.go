package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/mcpscope/mcpscope/recordings"
)

// Dir returns the private runtime directory of live sessions, creating it
// (mode 0700) when needed: $XDG_RUNTIME_DIR/mcpscope when that is set and
// usable, else mcpscope-UID under the temporary directory, else "live"
// beside the recordings in the state directory. A directory another user
// owns, or that others may open, is refused and the next one is tried.
func Dir() (string, error) {
	var candidates []string
	if x := os.Getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) {
		if fi, err := os.Stat(x); err == nil && fi.IsDir() {
			candidates = append(candidates, filepath.Join(x, "mcpscope"))
		}
	}
	candidates = append(candidates, filepath.Join(os.TempDir(), "mcpscope-"+strconv.Itoa(os.Getuid())))
	if rec, err := recordings.Dir(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(rec), "live"))
	}
	var errs []error
	for _, d := range candidates {
		if err := ensurePrivate(d); err != nil {
			errs = append(errs, err)
			continue
		}
		return d, nil
	}
	return "", fmt.Errorf("no private directory for live sessions: %w", errors.Join(errs...))
}

// ensurePrivate creates dir (mode 0700) if it is missing and checks that
// it is a directory, not a link, owned by this user and closed to others.
func ensurePrivate(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; live sessions are kept only in a real private directory", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s is open to other users (mode %04o); live sessions are kept only in a directory of mode 0700", dir, fi.Mode().Perm())
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d)", dir, uid)
	}
	return nil
}
