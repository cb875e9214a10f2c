package tokenstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRaw puts data as the token file of a fresh store.
func writeRaw(t *testing.T, data string, mode os.FileMode) *Store {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return Open(dir, nil)
}

func TestCorruptFile(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"syntax", "{\"version\":1,\n \"entries\": [}", ":2:14: malformed JSON"},
		{"truncated", "{\"version\":1,\n \"entries\": [", ":2:14: malformed JSON: it ends too soon"},
		{"type", "{\"version\":1,\n\"entries\":[{\"issuer\":\"i\",\"resource\":\"https://x\",\"auth_style\":\"secret-xyz\"}]}", `:2:73: "entries.auth_style" is a JSON string where a int belongs`},
		{"version", `{"version":2,"entries":[]}`, ": version 2, want 1"},
		{"no version", `{"entries":[]}`, ": version 0, want 1"},
		{"empty", ``, ":1:1: malformed JSON: it ends too soon"},
		{"no resource", `{"version":1,"entries":[{"issuer":"i"}]}`, ": entry 1 has no issuer or no resource"},
		{"bad time", `{"version":1,"entries":[{"issuer":"i","resource":"https://x","saved":"yesterday"}]}`, ": a value that is not what mcpscope writes"},
		{"trailing", `{"version":1,"entries":[]} x`, ":1:28: malformed JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := writeRaw(t, c.data, 0o600)
			_, err := s.List()
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("List of a corrupt file = %v, want a *CorruptError", err)
			}
			if want := s.Path() + c.want; !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %q, want it to start %q", err, want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("error %q quotes the file", err)
			}
			// Save refuses rather than replacing the file.
			if err := s.Save(entry("https://a.example.com", "https://example.com", 0)); !errors.As(err, &ce) {
				t.Fatalf("Save over a corrupt file = %v, want the file's error", err)
			}
			if _, err := s.Delete("https://x"); !errors.As(err, &ce) {
				t.Fatalf("Delete in a corrupt file = %v, want the file's error", err)
			}
			if data, _ := os.ReadFile(s.Path()); string(data) != c.data {
				t.Fatalf("the corrupt file was changed to %q", data)
			}
		})
	}
}

func TestOversizeFile(t *testing.T) {
	s := writeRaw(t, `{"version":1,"entries":[]}`+strings.Repeat(" ", maxFileSize), 0o600)
	_, err := s.List()
	if !errors.As(err, new(*CorruptError)) || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Fatalf("List of a 4 MiB file = %v, want it refused as larger than 4 MiB", err)
	}
	if err := s.Save(entry("https://a.example.com", "https://example.com", 0)); err == nil {
		t.Fatal("Save over an oversize file succeeded")
	}
}

func TestGroupReadableFileRefused(t *testing.T) {
	for _, mode := range []os.FileMode{0o640, 0o604, 0o660, 0o602} {
		s := writeRaw(t, `{"version":1,"entries":[]}`, mode)
		_, err := s.List()
		if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), "chmod 600 "+s.Path()) {
			t.Fatalf("List of a %04o file = %v, want ErrNotPrivate telling to chmod 600", mode, err)
		}
		if err := s.Save(entry("https://a.example.com", "https://example.com", 0)); !errors.Is(err, ErrNotPrivate) {
			t.Fatalf("Save over a %04o file = %v, want ErrNotPrivate", mode, err)
		}
	}
}

func TestNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil).List(); !errors.As(err, new(*CorruptError)) {
		t.Fatalf("List where the file is a directory = %v, want a *CorruptError", err)
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	for _, c := range []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {7, 4, 1}, {9, 4, 3}, {99, 4, 3}, {-1, 1, 1}} {
		if l, col := position(data, c.off); l != c.line || col != c.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
}

// FuzzDecode: the decoder never panics, and what it accepts it writes back
// as a file that decodes to the same entries.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"entries":[{"issuer":"https://a","resource":"https://b","client_id":"c","access_token":"t","expiry":"2030-01-01T00:00:00Z","saved":"2026-01-01T00:00:00Z","keyring":true}]}`))
	f.Add([]byte(`{"version":1,"entries":[]}`))
	f.Add([]byte(`{"version":1,"entries":[{"issuer":"i","resource":"r","auth_style":"x"}]}`))
	f.Add([]byte(`{"version":1,`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		doc, err := decode(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		dir := t.TempDir()
		if err := writeFile(dir, doc); err != nil {
			t.Fatal(err)
		}
		again, err := readFile(filepath.Join(dir, FileName))
		if err != nil {
			t.Fatalf("a file decode accepted does not read back: %v", err)
		}
		if len(again.Entries) != len(doc.Entries) {
			t.Fatalf("read back %d entries, want %d", len(again.Entries), len(doc.Entries))
		}
	})
}
