package junit

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes the suite to path atomically: into a temporary file
// beside it, then renamed over it, so that a reader never sees half a
// report and a failed write leaves the previous file whole.
func WriteFile(path string, s Suite) error {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return fmt.Errorf("writing the JUnit report: %w", err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := cmp.Or(werr, cerr, os.Chmod(tmp.Name(), 0o644), os.Rename(tmp.Name(), path)); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing the JUnit report %s: %w", path, err)
	}
	return nil
}
