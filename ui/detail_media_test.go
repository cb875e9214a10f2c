package ui

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/ui/contentsave"
)

// mediaStore holds a tools/call and its answer: an 8×6 PNG, a WAV clip,
// a PNG that claims 100000×100000 and truncated base64.
func mediaStore(t *testing.T) (*capture.Store, []byte) {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	pic := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 8, 6))
	clip := mediatest.WAV(8000, 4000, 0.9, -1)
	res := map[string]any{"content": []any{
		map[string]any{"type": "text", "text": "look"},
		map[string]any{"type": "image", "mimeType": "image/png", "data": pic},
		map[string]any{"type": "audio", "mimeType": "audio/wav", "data": base64.StdEncoding.EncodeToString(clip)},
		map[string]any{"type": "image", "mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(mediatest.LyingPNG(100000, 100000))},
		map[string]any{"type": "image", "mimeType": "image/png", "data": pic[:len(pic)-7]},
	}}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", map[string]any{"name": "media"})))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 1, res)))
	return st, clip
}

// The detail of a result previews its image in half blocks and its clip
// as a level strip above the JSON; what cannot be drawn says why. W
// offers each item in turn and saves the one chosen.
func TestDetailMediaAndSave(t *testing.T) {
	st, clip := mediaStore(t)
	m := newTestModel(t, st, 120, 50)
	press(m, "end")
	press(m, "enter")
	m.detail.prepare()
	rows := m.detail.content.rows(0, m.detail.content.rowCount())
	var preview []string
	for _, r := range rows {
		if strings.HasPrefix(r, "{") || strings.Contains(r, `"jsonrpc"`) {
			break
		}
		preview = append(preview, r)
	}
	golden(t, "detail_media", strings.Join(preview, "\n"))

	press(m, "W")
	if !strings.Contains(screenText(m), "save image 1 of 4 (esc, W: the next) to: content-1.png") {
		t.Fatalf("W does not offer the first image:\n%s", screenText(m))
	}
	press(m, "esc")
	press(m, "W")
	if !strings.Contains(screenText(m), "save audio 2 of 4 (esc, W: the next) to: content-2.wav") {
		t.Fatalf("W again does not offer the clip:\n%s", screenText(m))
	}
	press(m, "ctrl+u")
	path := filepath.Join(t.TempDir(), "clip.wav")
	for _, r := range path {
		press(m, string(r))
	}
	msg := press(m, "enter")()
	if saved, ok := msg.(contentsave.SavedMsg); !ok || saved.Err != nil {
		t.Fatalf("enter: %#v", msg)
	}
	m.Update(msg)
	if got, err := os.ReadFile(path); err != nil || string(got) != string(clip) {
		t.Fatalf("saved %d bytes (%v), want the clip's %d", len(got), err, len(clip))
	}
	if !strings.Contains(screenText(m), "saved 7.9 KiB to "+path) {
		t.Errorf("the status line does not say it saved:\n%s", screenText(m))
	}
	press(m, "W") // the next item, the lying image, over the same file
	if !strings.Contains(screenText(m), "save image 3 of 4") {
		t.Fatalf("W does not offer the third item:\n%s", screenText(m))
	}
	press(m, "ctrl+u")
	for _, r := range path {
		press(m, string(r))
	}
	if cmd := press(m, "enter"); cmd != nil {
		if _, wrote := cmd().(contentsave.SavedMsg); wrote {
			t.Fatal("saving over a file wrote without asking")
		}
	}
	if s := screenText(m); !strings.Contains(s, "replace "+path+"? y/n: "+contentsave.ReplaceHint) {
		t.Fatalf("saving over a file does not ask:\n%s", s)
	}
	press(m, "n")
	press(m, "enter")
	if s := screenText(m); !strings.Contains(s, "not saved: "+path+" is kept") || strings.Contains(s, contentsave.ReplaceHint) {
		t.Errorf("n: the status line or the input line:\n%s", s)
	}
}
