package explore

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// peerModel connects a model at 120×50 to the stdio server argv.
func peerModel(t *testing.T, argv []string) (*Model, *cmdRunner) {
	t.Helper()
	m, r := newModel(t, 120, 50)
	m.host.Sess = screentest.ConnectStdio(t, m.store, argv)
	return m, r
}

// callTool filters the tools to name, calls it (through its form when
// one opens) and waits for the answer.
func callTool(t *testing.T, r *cmdRunner, x *Explorer, name string) {
	t.Helper()
	r.Press("/")
	r.TypeText(name)
	r.Press("enter", "enter")
	if x.mode == modeForm {
		r.Press("ctrl+s")
	}
	r.Until("the answer of "+name, func() bool { return x.mode == modeOutcome })
}

// saveAs presses W and answers the save line with path.
func saveAs(r *cmdRunner, path string) {
	r.Press("W", "ctrl+u")
	r.TypeText(path)
	r.Press("enter")
}

// The TypeScript reference's 20×20 image in the explorer's outcome: its
// size and a half-block picture; W saves it (the same bytes), and saving
// again over the file asks first.
func TestExploreImageTS(t *testing.T) {
	t.Parallel()
	_, r := peerModel(t, peertest.TSEverything(t, "stdio"))
	x := openExplorerLoaded(t, r)
	callTool(t, r, x, "get-tiny-image")
	s := r.ScreenText()
	if !strings.Contains(s, "20×20") || strings.Count(s, "▀") < 20*10 {
		t.Fatalf("no 20×20 picture in the outcome:\n%s", s)
	}
	items := media.Items(x.out.Result)
	if len(items) != 1 {
		t.Fatalf("%d items in the answer, want the image", len(items))
	}
	want, _ := items[0].Bytes()

	r.Press("W")
	if !strings.Contains(r.ScreenText(), "save image to: content-1.png") {
		t.Fatalf("W does not offer content-1.png:\n%s", r.ScreenText())
	}
	r.Press("esc")
	path := filepath.Join(t.TempDir(), "logo.png")
	saveAs(r, path)
	r.Until("the image saved", func() bool { return media.Exists(path) })
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("saved %d bytes (%v), want the image's %d", len(got), err, len(want))
	}

	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	saveAs(r, path)
	if !strings.Contains(r.ScreenText(), "replace "+path+"? y/n:") {
		t.Fatalf("saving over a file does not ask:\n%s", r.ScreenText())
	}
	r.Press("n", "enter")
	if got, _ := os.ReadFile(path); string(got) != "keep me" || x.saving != nil {
		t.Fatalf("n replaced the file (%q) or left the line open", got)
	}
	saveAs(r, path)
	r.Press("y", "enter")
	r.Until("the file replaced", func() bool {
		got, _ := os.ReadFile(path)
		return bytes.Equal(got, want)
	})
}

// The Go conformance server's WAV clip in the explorer's outcome: its
// format and duration; W offers content-1.wav.
func TestExploreAudioGoConformance(t *testing.T) {
	t.Parallel()
	_, r := peerModel(t, []string{peertest.GoSDKConformance(t)})
	x := openExplorerLoaded(t, r)
	callTool(t, r, x, "test_audio_content")
	if s := r.ScreenText(); !strings.Contains(s, "[audio audio/wav") || !strings.Contains(s, "Hz ·") || !strings.Contains(s, " s") {
		t.Fatalf("no WAV format in the outcome:\n%s", s)
	}
	r.Press("W")
	if !strings.Contains(r.ScreenText(), "save audio to: content-1.wav") {
		t.Fatalf("W does not offer content-1.wav:\n%s", r.ScreenText())
	}
	r.Press("esc")
	if x.saving != nil || x.mode != modeOutcome {
		t.Errorf("esc left the save line open (mode %d)", x.mode)
	}
}

// The demo's inline tone (stdio-like: not MCP-Flow's datagrams) is a
// 16-bit PCM clip whose level strip is drawn.
func TestExploreToneDemo(t *testing.T) {
	t.Parallel()
	m, r := newModel(t, 120, 50)
	m.host.Sess = screentest.ConnectDemoHTTP(t, m.store)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("tone")
	r.Press("enter", "f", "ctrl+s")
	r.Until("the tone", func() bool { return x.mode == modeOutcome })
	s := r.ScreenText()
	if !strings.Contains(s, "1 ch · 16000 Hz · 16-bit PCM") || !strings.ContainsAny(s, "▅▆▇█") {
		t.Fatalf("no clip format or level strip:\n%s", s)
	}
}
