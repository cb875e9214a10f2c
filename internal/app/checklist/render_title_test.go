package checklist

import (
	"strings"
	"testing"
)

// TestRenderTitleAndRunning: a checklist names itself by its Title, and
// one still under way says so instead of "every step passed".
func TestRenderTitleAndRunning(t *testing.T) {
	r := Report{Title: "authorization", Target: "https://example.com/mcp",
		Results: []Result{{Step: "challenge", Status: Passed, Detail: "401 Unauthorized"}}}
	var b strings.Builder
	if err := r.Render(&b, RenderOptions{MaskTimes: true, Running: true}); err != nil {
		t.Fatal(err)
	}
	want := "authorization https://example.com/mcp\n  ✓ challenge        T  401 Unauthorized\n\nunder way…\n"
	if b.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	r.Title = ""
	_ = r.Render(&b, RenderOptions{MaskTimes: true})
	if !strings.HasPrefix(b.String(), "doctor ") || !strings.HasSuffix(b.String(), "every step passed\n") {
		t.Fatalf("an untitled finished checklist: %q", b.String())
	}
}
