package prompts_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts"
)

const filePrompt = `{"type":"file","message":"Upload the report","accept":[".csv","json"],"validation":{"required":true}}`

// fileTree makes a directory to pick from: sub/deep.json, big.csv,
// data.csv and notes.md, listed in that order (directories first).
func fileTree(t *testing.T) (dir string, data []byte) {
	t.Helper()
	dir = t.TempDir()
	data = []byte("city,travellers\nOslo,2\nLima,1\n")
	for name, content := range map[string][]byte{
		"data.csv":       data,
		"big.csv":        []byte(strings.Repeat("x,y\n", 10)),
		"notes.md":       []byte("# notes\n"),
		"sub/deep.json":  []byte(`{"deep":true}`),
		".hidden/secret": []byte("no"),
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, data
}

// decodeFile reads a file answer.
func decodeFile(t *testing.T, w prompts.Widget) (prompts.FileValue, []byte) {
	t.Helper()
	var fv prompts.FileValue
	if err := json.Unmarshal([]byte(value(t, w)), &fv); err != nil {
		t.Fatalf("the value is not a file answer: %v", err)
	}
	content, err := base64.StdEncoding.DecodeString(fv.Content)
	if err != nil {
		t.Fatalf("the content is not base64: %v", err)
	}
	return fv, content
}

// Choosing a file reads it and answers {"name","size","content"}, the
// content in base64 byte for byte.
func TestFileChoose(t *testing.T) {
	dir, data := fileTree(t)
	w := newWidget(t, filePrompt, prompts.Options{Dir: dir})
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "choose a file") {
		t.Errorf("before a choice: Validate = %v, want choose a file", err)
	}
	if _, err := w.Value(); err == nil {
		t.Errorf("before a choice: Value = nil error")
	}
	if a := press(t, w, "down", "down", "enter"); a != prompts.ActionSubmit {
		t.Fatalf("enter on data.csv = %v, want submit", a)
	}
	fv, content := decodeFile(t, w)
	if fv.Name != "data.csv" || fv.Size != int64(len(data)) {
		t.Errorf("name, size = %q, %d; want data.csv, %d", fv.Name, fv.Size, len(data))
	}
	if sha256.Sum256(content) != sha256.Sum256(data) {
		t.Errorf("content = %q, want %q", content, data)
	}
	if out := goldentest.Plain(w.Render(60, 12)); !strings.Contains(out, fmt.Sprintf("chosen: data.csv (%d B)", len(data))) {
		t.Errorf("render does not name the file chosen:\n%s", out)
	}
}

// Directories open with enter; ← goes back to the parent.
func TestFileDirectories(t *testing.T) {
	dir, _ := fileTree(t)
	w := newWidget(t, filePrompt, prompts.Options{Dir: dir})
	press(t, w, "enter")
	if out := goldentest.Plain(w.Render(60, 12)); !strings.Contains(out, "in ./sub") || !strings.Contains(out, "deep.json") {
		t.Fatalf("enter on sub does not open it:\n%s", out)
	}
	press(t, w, "left")
	out := goldentest.Plain(w.Render(60, 12))
	if !strings.Contains(out, "in ./\n") || !strings.Contains(out, "data.csv") {
		t.Fatalf("← does not return to the start:\n%s", out)
	}
	press(t, w, "enter")
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Fatalf("enter on sub/deep.json = %v, want submit", a)
	}
	if fv, content := decodeFile(t, w); fv.Name != "deep.json" || string(content) != `{"deep":true}` {
		t.Errorf("value = %+v %q, want deep.json", fv, content)
	}
	if out := goldentest.Plain(w.Render(60, 12)); !strings.Contains(out, "chosen: "+filepath.Join("sub", "deep.json")) {
		t.Errorf("render does not name the file chosen:\n%s", out)
	}
}

// A file over the limit is refused with both sizes, and so is one whose
// extension is not accepted; neither answers.
func TestFileRefused(t *testing.T) {
	dir, _ := fileTree(t)
	w := newWidget(t, filePrompt, prompts.Options{Dir: dir, MaxFileSize: 16})
	if a := press(t, w, "down", "enter"); a != prompts.ActionNone {
		t.Fatalf("enter on big.csv = %v, want none", a)
	}
	out := goldentest.Plain(w.Render(80, 12))
	if !strings.Contains(out, "✗ big.csv is 40 B, larger than the 16 B a file answer may have") {
		t.Errorf("render does not say the file is too large:\n%s", out)
	}
	if _, err := w.Value(); err == nil {
		t.Errorf("Value after a refused file = nil error")
	}
	if a := press(t, w, "down", "down", "enter"); a != prompts.ActionNone {
		t.Fatalf("enter on notes.md = %v, want none", a)
	}
	if out := goldentest.Plain(w.Render(80, 12)); !strings.Contains(out, "✗ notes.md is not one of the accepted types (.csv, .json)") {
		t.Errorf("render does not refuse the type:\n%s", out)
	}
}

// Without Options.MaxFileSize the limit is 10 MiB.
func TestFileDefaultLimit(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(prompts.DefaultMaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	w := newWidget(t, filePrompt, prompts.Options{Dir: dir})
	if a := press(t, w, "enter"); a != prompts.ActionNone {
		t.Fatalf("enter on huge.csv = %v, want none", a)
	}
	if out := goldentest.Plain(w.Render(100, 12)); !strings.Contains(out, "larger than the 10 MiB a file answer may have") {
		t.Errorf("render does not give the default limit:\n%s", out)
	}
}

// With PathOnly the picker answers with the chosen file's absolute path
// and its size, without reading it, so MaxFileSize does not refuse it;
// the rules line says so.
func TestFilePathOnly(t *testing.T) {
	dir, _ := fileTree(t)
	w := newWidget(t, `{"type":"file","message":"File to upload"}`, prompts.Options{Dir: dir, PathOnly: true, MaxFileSize: 1})
	if a := press(t, w, "down", "enter"); a != prompts.ActionSubmit {
		t.Fatalf("enter on big.csv = %v, want submit", a)
	}
	wantValue(t, w, jsonString(t, filepath.Join(dir, "big.csv")))
	out := goldentest.Plain(w.Render(60, 12))
	if !strings.Contains(out, "chosen: big.csv (40 B)") || !strings.Contains(out, "any size (not read here)") || strings.Contains(out, "up to") {
		t.Errorf("render:\n%s", out)
	}
}

// jsonString is s as a JSON string.
func jsonString(t testing.TB, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
