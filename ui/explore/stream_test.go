package explore

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// streamCall is one call of a fake StreamFunc.
type streamCall struct{ method, upload string }

// streamingExplorer opens the explorer on the demo, its StreamFunc
// noting each call on calls and answering summary, with files of 1500
// bytes (and their directories) made under dir.
func streamingExplorer(t *testing.T, summary string, files ...string) (x *Explorer, r *cmdRunner, calls chan streamCall, dir string) {
	t.Helper()
	m, r, _ := demoModel(t)
	calls = make(chan streamCall, 1)
	m.host.Stream = func(_ context.Context, method, upload string) (json.RawMessage, error) {
		calls <- streamCall{method, upload}
		return json.RawMessage(summary), nil
	}
	dir = t.TempDir()
	for _, name := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, 1500), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openExplorerLoaded(t, r), r, calls, dir
}

// S on a tool opens a picker of the file to upload (the file prompt's,
// starting in its start directory): enter opens a directory, enter on a file
// runs the gateway stream of that tool with the file's path, and the
// server's summary is the answer.
func TestExploreStartsAGatewayStream(t *testing.T) {
	x, r, calls, dir := streamingExplorer(t, `{"totalChunks":2,"totalBytes":131072}`, "big.bin", filepath.Join("sub", "deep.bin"))
	x.pick.dir = dir
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "S")
	s := r.ScreenText()
	if x.mode != modeStreamPick || !strings.Contains(s, "gateway stream of echo on a connection of its own") || !strings.Contains(s, "Pick the file to upload") ||
		!strings.Contains(s, "big.bin") || !strings.Contains(s, "ctrl+s streams with no file") {
		t.Fatalf("S did not open the picker:\n%s", s)
	}
	r.Press("enter")
	r.Until("the sub directory", func() bool { return strings.Contains(r.ScreenText(), "deep.bin") })
	r.Press("enter")
	r.Until("the stream's answer", func() bool { return x.mode == modeOutcome })
	if c := <-calls; c.method != "echo" || c.upload != filepath.Join(dir, "sub", "deep.bin") {
		t.Errorf("stream ran %+v", c)
	}
	if s := r.ScreenText(); !strings.Contains(s, "stream echo · answer") || !strings.Contains(s, "131072") {
		t.Errorf("the answer:\n%s", s)
	}
	// esc leaves the picker for the list, nothing run.
	r.Press("esc", "S", "esc")
	if x.mode != modeList || x.pick.file != nil || len(calls) != 0 {
		t.Errorf("esc in the picker: mode %d, %d calls", x.mode, len(calls))
	}
}

// The stream's picker goes above the directory it starts in with ←, and
// takes a typed path: ctrl+l opens it at the directory shown, tab
// completes a name, enter uploads the file.
func TestExploreStreamPickerTypedPath(t *testing.T) {
	x, r, calls, dir := streamingExplorer(t, `{"totalChunks":1,"totalBytes":1500}`, "upload.bin", filepath.Join("start", "notes.txt"))
	x.pick.dir = filepath.Join(dir, "start")
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "S", "left")
	r.Until("the parent of the start", func() bool { return strings.Contains(r.ScreenText(), "upload.bin") })
	r.Press("ctrl+l")
	r.TypeText("up")
	r.Press("tab")
	if s := r.ScreenText(); !strings.Contains(s, "path> "+filepath.Join(dir, "upload.bin")) {
		t.Fatalf("tab did not complete the path:\n%s", s)
	}
	r.Press("enter")
	r.Until("the stream's answer", func() bool { return x.mode == modeOutcome })
	if c := <-calls; c.method != "echo" || c.upload != filepath.Join(dir, "upload.bin") {
		t.Errorf("stream ran %+v", c)
	}
}

// Without a link that streams, S does nothing; ctrl+s in the picker runs
// the stream with no file, ctrl+x stops it in flight and the answer says
// it was cancelled.
func TestExploreGatewayStreamCancelAndAbsence(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("S")
	if x.mode != modeList {
		t.Fatalf("S without a streaming link: mode %d", x.mode)
	}
	started := make(chan struct{})
	upload := "not called"
	m.host.Stream = func(ctx context.Context, _, file string) (json.RawMessage, error) {
		upload = file
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	r.Press("S")
	cmd := press(m, "ctrl+s") // no file: the stream only downloads
	done := make(chan struct{})
	go func() { defer close(done); r.Run(cmd) }()
	<-started
	press(m, "ctrl+x")
	<-done
	r.Until("the cancelled answer", func() bool { return x.mode == modeOutcome })
	if !x.cancelled || upload != "" || !strings.Contains(r.ScreenText(), "stream analyze · cancelled") {
		t.Errorf("after ctrl+x:\n%s", r.ScreenText())
	}
}

// A gateway stream's answer arrives rendered where it arrived, off the
// Update goroutine, as a call's does: Update only shows it.
func TestExploreStreamAnswerRenderedInItsCommand(t *testing.T) {
	x, r, calls, _ := streamingExplorer(t, `{"totalChunks":2,"totalBytes":131072}`)
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "S")
	cmd := x.startStream("")
	msg := screentest.RunUntil(t, "the stream's answer", cmd, func(msg tea.Msg) bool { _, ok := msg.(exploreAnswerMsg); return ok }).(exploreAnswerMsg)
	<-calls
	if msg.view == nil || !strings.Contains(msg.view.out.Body, "131072") {
		t.Fatalf("the stream's answer came unrendered: %+v", msg.view)
	}
	x.answered(msg)
	if x.mode != modeOutcome || x.out != msg.view.out {
		t.Errorf("the answer shown is not the one rendered: mode %d", x.mode)
	}
}
