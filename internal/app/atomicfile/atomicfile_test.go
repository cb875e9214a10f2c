package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file with the mode asked, and a failing check leaves
// the old file and no temporary one behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	if err := Write(path, []byte("old"), 0o644, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("%v, %v", fi, err)
	}
	refused := errors.New("refused")
	if err := Write(path, []byte("new"), 0o644, func() error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("check's error: %v", err)
	}
	got, _ := os.ReadFile(path)
	entries, _ := os.ReadDir(dir)
	if string(got) != "old" || len(entries) != 1 {
		t.Errorf("after a refused write: %q, %d files", got, len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "x"), nil, 0o644, nil); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
}
