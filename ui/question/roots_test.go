package question

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/asktest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// openRootsEditor opens the roots editor on the bridge's roots in a test
// model sized w×h.
func openRootsEditor(t *testing.T, w, h int) (*testModel, *runner, *RootsEditor) {
	t.Helper()
	m, r, b := newTestModel(t, w, h)
	e := OpenRoots(m.host, b)
	e.SetSize(w, h)
	m.open = e
	return m, r, e
}

// The roots editor takes a local path as --root does: its absolute
// file:// URI, named after its last element unless a name is typed.
func TestRootsEditorTakesALocalPath(t *testing.T) {
	_, r, e := openRootsEditor(t, 100, 30)
	dir := t.TempDir()
	r.Press("a")
	r.TypeText(filepath.Join(dir, "project"))
	r.Press("enter")
	r.Press("a")
	r.TypeText(dir)
	r.Press("tab")
	r.TypeText("work")
	r.Press("enter")
	if e.Editing() {
		t.Fatalf("a local path was refused:\n%s", r.ScreenText())
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
	want := []mcp.Root{{URI: "file:///srv/a", Name: "a"}, {URI: uri + "/project", Name: "project"}, {URI: uri, Name: "work"}}
	if asktest.MustJSON(t, e.Roots()) != asktest.MustJSON(t, want) {
		t.Errorf("roots %+v, want %+v", e.Roots(), want)
	}
}

// The roots editor reads what it is given as --root does: "~/proj" is
// under the home directory, and "proj:v2", having no "://", is a local
// path, not a URI.
func TestRootsEditorReadsAsRootFlag(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	_, r, e := openRootsEditor(t, 100, 30)
	for _, in := range []string{"~/proj", "proj:v2"} {
		r.Press("a")
		r.TypeText(in)
		r.Press("enter")
	}
	if e.Editing() {
		t.Fatalf("a root was refused:\n%s", r.ScreenText())
	}
	var want []mcp.Root
	for _, in := range []string{"file:///srv/a", "~/proj", "proj:v2"} {
		root, err := mcp.ParseRoot(in)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, root)
	}
	if want[1].URI != (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(home, "proj"))}).String() || !strings.HasPrefix(want[2].URI, "file://") {
		t.Fatalf("proto.ParseRoot reads ~/proj as %s and proj:v2 as %s", want[1].URI, want[2].URI)
	}
	if asktest.MustJSON(t, e.Roots()) != asktest.MustJSON(t, want) {
		t.Errorf("roots %+v, want %+v", e.Roots(), want)
	}
}
