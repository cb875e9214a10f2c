package prompts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts"
)

// rendered is the widget drawn 80×16, plain.
func rendered(w prompts.Widget) string { return goldentest.Plain(w.Render(80, 16)) }

// ← (and backspace, and h, as bubbles' picker has them) goes above the
// directory the prompt starts in, which is then shown by its whole path,
// and a file chosen there answers.
func TestFileGoesAboveItsStart(t *testing.T) {
	dir, data := fileTree(t)
	w := newWidget(t, filePrompt, prompts.Options{Dir: filepath.Join(dir, "sub")})
	press(t, w, "backspace")
	if out := rendered(w); !strings.Contains(out, "in "+dir+"\n") || !strings.Contains(out, "data.csv") {
		t.Fatalf("← does not open the parent of the start:\n%s", out)
	}
	press(t, w, "h")
	if out := rendered(w); !strings.Contains(out, "in "+filepath.Dir(dir)+"\n") {
		t.Fatalf("h does not go one more up:\n%s", out)
	}
	press(t, w, "enter") // back into dir, the only entry of a fresh temporary directory
	if a := press(t, w, "down", "down", "enter"); a != prompts.ActionSubmit {
		t.Fatalf("enter on data.csv above the start = %v, want submit:\n%s", a, rendered(w))
	}
	if fv, content := decodeFile(t, w); fv.Name != "data.csv" || string(content) != string(data) {
		t.Errorf("value = %+v %q", fv, content)
	}
	if out := rendered(w); !strings.Contains(out, "chosen: "+filepath.Join(dir, "data.csv")) {
		t.Errorf("a file above the start is not named by its whole path:\n%s", out)
	}
}

// ctrl+l opens the typed path at the directory shown: tab completes a
// directory with its separator, enter opens it in the picker; / opens it
// at the root, a whole path typed and enter chooses the file; a relative
// path reads from the directory shown.
func TestFileTypedPath(t *testing.T) {
	dir, data := fileTree(t)
	w := newWidget(t, filePrompt, prompts.Options{Dir: dir})
	press(t, w, "ctrl+l")
	if out := rendered(w); !strings.Contains(out, "path> "+dir+string(filepath.Separator)) {
		t.Fatalf("ctrl+l does not open the path at the directory shown:\n%s", out)
	}
	if !keyhelp.Of(w.KeyMap()).Typing {
		t.Errorf("the keys do not say a path is being typed")
	}
	typeText(w, "su")
	press(t, w, "tab")
	if out := rendered(w); !strings.Contains(out, "path> "+filepath.Join(dir, "sub")+string(filepath.Separator)) {
		t.Fatalf("tab does not complete sub/:\n%s", out)
	}
	press(t, w, "enter")
	if out := rendered(w); !strings.Contains(out, "in ./sub") || !strings.Contains(out, "deep.json") || strings.Contains(out, "path>") {
		t.Fatalf("enter on a typed directory does not open it:\n%s", out)
	}
	press(t, w, "/")
	if out := rendered(w); !strings.Contains(out, "path> /") {
		t.Fatalf("/ does not open the path at the root:\n%s", out)
	}
	typeText(w, strings.TrimPrefix(filepath.Join(dir, "data.csv"), "/"))
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Fatalf("enter on a typed file = %v, want submit:\n%s", a, rendered(w))
	}
	if fv, content := decodeFile(t, w); fv.Name != "data.csv" || string(content) != string(data) {
		t.Errorf("value = %+v %q", fv, content)
	}
	press(t, w, "ctrl+l")
	typeText(w, "deep.json") // relative to ./sub, still shown
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Fatalf("enter on a relative path = %v, want submit:\n%s", a, rendered(w))
	}
	if fv, _ := decodeFile(t, w); fv.Name != "deep.json" {
		t.Errorf("value = %+v, want deep.json", fv)
	}
}

// Tab with several names that fit extends the path as far as they agree
// and lists them, with none it says so; a path to nothing, or to a file of
// a type the prompt does not accept, is refused with the input kept or
// the reason shown; esc closes the input, and only a second esc cancels
// the prompt.
func TestFileTypedPathRefusals(t *testing.T) {
	dir, _ := fileTree(t)
	for _, name := range []string{"report-2025.csv", "report-2026.csv"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("a,b\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := newWidget(t, filePrompt, prompts.Options{Dir: dir})
	press(t, w, "ctrl+l")
	typeText(w, "rep")
	press(t, w, "tab")
	if out := rendered(w); !strings.Contains(out, "report-202\n") || !strings.Contains(out, "report-2025.csv  report-2026.csv") {
		t.Errorf("tab does not stop where the names part, listing them:\n%s", out)
	}
	typeText(w, "7")
	press(t, w, "tab")
	if out := rendered(w); !strings.Contains(out, "no name in "+dir+" starts with report-2027") {
		t.Errorf("tab with nothing that fits does not say so:\n%s", out)
	}
	if a := press(t, w, "enter"); a != prompts.ActionNone {
		t.Fatalf("enter on a path to nothing = %v", a)
	}
	if out := rendered(w); !strings.Contains(out, "✗ nothing at "+filepath.Join(dir, "report-2027")) || !strings.Contains(out, "path>") {
		t.Errorf("a path to nothing is not refused with the input kept:\n%s", out)
	}
	press(t, w, "esc")
	press(t, w, "ctrl+l")
	typeText(w, "notes.md")
	if a := press(t, w, "enter"); a != prompts.ActionNone {
		t.Fatalf("enter on a typed file of a type not accepted = %v", a)
	}
	if out := rendered(w); !strings.Contains(out, "✗ notes.md is not one of the accepted types (.csv, .json)") {
		t.Errorf("the type is not refused:\n%s", out)
	}
	press(t, w, "/")
	if a := press(t, w, "esc"); a != prompts.ActionNone || strings.Contains(rendered(w), "path>") {
		t.Fatalf("esc in the path = %v, want the input closed:\n%s", a, rendered(w))
	}
	if a := press(t, w, "esc"); a != prompts.ActionCancel {
		t.Errorf("esc in the picker = %v, want cancel", a)
	}
}
