package recordings

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNewPathNamesTheTarget(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 2, 3, 4e6, time.UTC)
	for target, want := range map[string]string{
		"https://127.0.0.1:3000/mcp?key=x":                     "20261125T010203.004Z-127.0.0.1_3000_mcp" + Ext,
		"npx -y @modelcontextprotocol/server-everything stdio": "20261125T010203.004Z-npx_stdio" + Ext,
		"/usr/bin/node /srv/server.js":                         "20261125T010203.004Z-node_server.js" + Ext,
		"../../../etc/passwd":                                  "20261125T010203.004Z-passwd" + Ext,
		"":                                                     "20261125T010203.004Z-session" + Ext,
	} {
		if got := filepath.Base(NewPath("d", target, at)); got != want {
			t.Errorf("%q: %s, want %s", target, got, want)
		}
	}
}

// writeRecording makes a small recording at path with frames frames.
func writeRecording(t *testing.T, path string, frames int, end bool) {
	t.Helper()
	w, err := Create(path, Header{Target: "demo", Transport: "stdio"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sampleFrames(t)[:frames] {
		w.Append(clone(f))
	}
	if end {
		_ = w.Close()
		return
	}
	w.mu.Lock()
	w.closed = true // as if killed: no end line
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	_ = w.drain()
	_ = w.file.Close()
}

// List gives the newest first with headers, frame counts and whether each
// ended cleanly; a file that is not a recording says why.
func TestListDescribesRecordings(t *testing.T) {
	dir := t.TempDir()
	writeRecording(t, filepath.Join(dir, "20260101T000000.000Z-a"+Ext), 3, true)
	writeRecording(t, filepath.Join(dir, "20260102T000000.000Z-b"+Ext), 6, false)
	if err := os.WriteFile(filepath.Join(dir, "20260103T000000.000Z-c"+Ext), []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600)
	got, err := List(dir)
	if err != nil || len(got) != 3 {
		t.Fatalf("%d entries, %v", len(got), err)
	}
	if got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "not an mcpscope recording") {
		t.Errorf("garbage: %+v", got[0])
	}
	if got[1].Frames != 6 || got[1].Ended || got[2].Frames != 3 || !got[2].Ended || got[2].Header.Target != "demo" {
		t.Errorf("entries %+v", got[1:])
	}
	if none, err := List(filepath.Join(dir, "missing")); err != nil || len(none) != 0 {
		t.Errorf("missing dir: %v, %v", none, err)
	}
}

// Prune keeps the newest n, and fewer when they pass the byte budget; the
// newest always stays.
func TestPruneKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		writeRecording(t, filepath.Join(dir, "2026010"+string(rune('1'+i))+"T000000.000Z-x"+Ext), 2, true)
	}
	if err := Prune(dir, 3, 1<<30); err != nil {
		t.Fatal(err)
	}
	got, _ := List(dir)
	if len(got) != 3 || !strings.Contains(got[0].Path, "20260105") || !strings.Contains(got[2].Path, "20260103") {
		t.Fatalf("kept %+v", got)
	}
	if err := Prune(dir, 50, 1); err != nil {
		t.Fatal(err)
	}
	if got, _ := List(dir); len(got) != 1 || !strings.Contains(got[0].Path, "20260105") {
		t.Fatalf("over budget kept %+v", got)
	}
}

func TestDirFollowsXDGStateHome(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if d, err := Dir(); err != nil || d != "/state/mcpscope/recordings" {
		t.Errorf("%s, %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if d, _ := Dir(); d != "/home/u/.local/state/mcpscope/recordings" {
		t.Errorf("relative XDG_STATE_HOME: %s", d)
	}
}

// cutFile removes the last n bytes of path.
func cutFile(t *testing.T, path string, n int64) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-n); err != nil {
		t.Fatal(err)
	}
}

// A LineCounter counts the same frames and end line however the bytes
// are split between writes.
func TestLineCounterAcrossWrites(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{})
	for _, f := range sampleFrames(t) {
		w.Append(clone(f))
	}
	_ = w.Close()
	b := buf.Bytes()
	for _, size := range []int{1, 2, 3, 7, 13, 14, 15, 64, len(b)} {
		var c LineCounter
		for i := 0; i < len(b); i += size {
			_, _ = c.Write(b[i:min(i+size, len(b))])
		}
		if c.Frames != int64(len(sampleFrames(t))) || !c.Ended {
			t.Errorf("writes of %d bytes: %d frames, ended %v", size, c.Frames, c.Ended)
		}
	}
}
