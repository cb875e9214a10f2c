package tokenstore

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// entry returns an entry of issuer for resource with secrets named after
// both, saved at the given minute.
func entry(issuer, resource string, minute int) Entry {
	return Entry{
		Issuer: issuer, Resource: resource, ClientID: "client-" + issuer,
		ClientSecret: "cs-" + issuer + "-" + resource, Registration: "dynamic",
		TokenURL: issuer + "/token", AuthStyle: 1, Scopes: []string{"files:read", "files:write"},
		AccessToken: "at-" + issuer + "-" + resource, RefreshToken: "rt-" + issuer + "-" + resource,
		TokenType: "Bearer", Expiry: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		Saved: time.Date(2026, 1, 1, 0, minute, 0, 0, time.UTC),
	}
}

func mustSave(t *testing.T, s *Store, es ...Entry) {
	t.Helper()
	for _, e := range es {
		if err := s.Save(e); err != nil {
			t.Fatalf("Save(%s, %s): %v", e.Issuer, e.Resource, err)
		}
	}
}

func mustFind(t *testing.T, s *Store, resource string) []Entry {
	t.Helper()
	got, err := s.Find(resource)
	if err != nil {
		t.Fatalf("Find(%s): %v", resource, err)
	}
	return got
}

func TestRoundTrip(t *testing.T) {
	s := Open(t.TempDir(), nil)
	want := entry("https://auth.example.com", "https://mcp.example.com/mcp", 1)
	mustSave(t, s, want)
	got := mustFind(t, Open(s.dir, nil), want.Resource)
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("Find after Save = %+v, want [%+v]", got, want)
	}
}

func TestSaveStampsSavedAndCanonicalResource(t *testing.T) {
	s := Open(t.TempDir(), nil)
	e := entry("https://auth.example.com", "HTTPS://MCP.Example.com:443/mcp/", 0)
	e.Saved = time.Time{}
	before := time.Now()
	mustSave(t, s, e)
	got := mustFind(t, s, "https://mcp.example.com/mcp")
	if len(got) != 1 || got[0].Resource != "https://mcp.example.com/mcp" || got[0].Saved.Before(before.Add(-time.Second)) {
		t.Fatalf("Find = %+v, want the resource canonical and Saved stamped", got)
	}
}

func TestSaveRefusesBadEntries(t *testing.T) {
	s := Open(t.TempDir(), nil)
	if err := s.Save(entry("", "https://mcp.example.com", 0)); err == nil {
		t.Error("Save of an entry without issuer succeeded")
	}
	if err := s.Save(entry("https://auth.example.com", "mcp.example.com", 0)); err == nil {
		t.Error("Save of an entry whose resource is no URI succeeded")
	}
}

func TestPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "mcpscope")
	mustSave(t, Open(dir, nil), entry("https://auth.example.com", "https://mcp.example.com", 0))
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, FileName): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %04o, want %04o", path, fi.Mode().Perm(), want)
		}
	}
}

// Writes go through a temporary file renamed over tokens.json: none is
// left behind, whether the write succeeds or fails.
func TestAtomicWriteLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	for i := range 5 {
		mustSave(t, s, entry("https://auth.example.com", "https://mcp.example.com/"+string(rune('a'+i)), i))
	}
	if _, err := s.Delete("https://mcp.example.com/a"); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		des, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, de := range des {
			out = append(out, de.Name())
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{FileName, lockName}) {
		t.Fatalf("the directory holds %v, want only %s and %s", got, FileName, lockName)
	}
	// A rename that fails (the target is a directory) leaves no temporary file.
	bad := t.TempDir()
	if err := os.Mkdir(filepath.Join(bad, FileName), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(bad, fileDoc{}); err == nil {
		t.Fatal("writeFile over a directory succeeded")
	}
	des, _ := os.ReadDir(bad)
	if len(des) != 1 {
		t.Fatalf("a failed write left %d files, want only the directory it could not replace", len(des))
	}
}

func TestSaveReplacesByIssuerAndResource(t *testing.T) {
	s := Open(t.TempDir(), nil)
	first := entry("https://auth.example.com", "https://mcp.example.com/mcp", 1)
	other := entry("https://other-auth.example.com", "https://mcp.example.com/mcp", 2)
	mustSave(t, s, first, other)
	second := first
	second.AccessToken, second.Saved = "at-new", first.Saved.Add(time.Hour)
	second.Resource = "HTTPS://mcp.example.com:443/mcp/" // the same resource, spelt otherwise
	mustSave(t, s, second)
	got := mustFind(t, s, first.Resource)
	if len(got) != 2 {
		t.Fatalf("Find = %d entries, want 2 (one per issuer): %+v", len(got), got)
	}
	if got[0].Issuer != first.Issuer || got[0].AccessToken != "at-new" || got[1].Issuer != other.Issuer {
		t.Fatalf("Find = %+v, want the replaced entry first (newest) and the other issuer's kept", got)
	}
}

func TestFindByCanonicalResource(t *testing.T) {
	s := Open(t.TempDir(), nil)
	old := entry("https://a.example.com", "https://example.com/mcp", 1)
	newer := entry("https://b.example.com", "https://example.com/mcp", 5)
	elsewhere := entry("https://a.example.com", "https://example.com/other", 9)
	mustSave(t, s, old, newer, elsewhere)
	got := mustFind(t, s, "HTTPS://Example.COM:443/mcp/")
	if len(got) != 2 || got[0].Issuer != newer.Issuer || got[1].Issuer != old.Issuer {
		t.Fatalf("Find = %+v, want b then a (newest Saved first)", got)
	}
	if got := mustFind(t, s, "https://example.com/none"); len(got) != 0 {
		t.Fatalf("Find of an unknown resource = %+v, want none", got)
	}
	if _, err := s.Find("example.com/mcp"); err == nil {
		t.Fatal("Find of a resource that is no URI succeeded")
	}
}

func TestDelete(t *testing.T) {
	s := Open(t.TempDir(), nil)
	a := entry("https://a.example.com", "https://example.com/mcp", 1)
	b := entry("https://b.example.com", "https://example.com/mcp", 2)
	keep := entry("https://a.example.com", "https://example.com/keep", 3)
	mustSave(t, s, a, b, keep)
	removed, err := s.Delete("https://EXAMPLE.com/mcp/")
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || removed[0].AccessToken == "" {
		t.Fatalf("Delete returned %+v, want both entries of the resource, secrets included", removed)
	}
	if got := mustFind(t, s, a.Resource); len(got) != 0 {
		t.Fatalf("Find after Delete = %+v, want none", got)
	}
	if got := mustFind(t, s, keep.Resource); len(got) != 1 {
		t.Fatalf("Delete removed another resource's entry: %+v", got)
	}
	if removed, err := s.Delete(a.Resource); err != nil || len(removed) != 0 {
		t.Fatalf("a second Delete = %+v, %v; want nothing removed", removed, err)
	}
	if removed, err := Open(t.TempDir(), nil).Delete(a.Resource); err != nil || len(removed) != 0 {
		t.Fatalf("Delete in an empty store = %+v, %v; want nothing removed", removed, err)
	}
}

func TestList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "absent")
	s := Open(dir, nil)
	if got, err := s.List(); err != nil || len(got) != 0 {
		t.Fatalf("List of a store never written = %+v, %v; want none", got, err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("List created the store's directory")
	}
	mustSave(t, s,
		entry("https://a.example.com", "https://z.example.com", 1),
		entry("https://a.example.com", "https://y.example.com", 2),
		entry("https://b.example.com", "https://y.example.com", 3))
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range got {
		order = append(order, e.Issuer+" "+e.Resource)
	}
	want := []string{"https://b.example.com https://y.example.com", "https://a.example.com https://y.example.com", "https://a.example.com https://z.example.com"}
	if !slices.Equal(order, want) {
		t.Fatalf("List order = %q, want %q", order, want)
	}
}

func TestWhere(t *testing.T) {
	dir := t.TempDir()
	if got, want := Open(dir, nil).Where(), filepath.Join(dir, FileName); got != want {
		t.Errorf("Where without keyring = %q, want %q", got, want)
	}
	want := "the OS keyring (service mcpscope), index in " + filepath.Join(dir, FileName)
	if got := Open(dir, newFakeKeyring()).Where(); got != want {
		t.Errorf("Where with keyring = %q, want %q", got, want)
	}
}
