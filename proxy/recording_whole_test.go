package proxy

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// TestRecordingKeepsWhatTheStoreCaps relays a message heavier than the
// store's per-frame head: the store keeps its head, the recording the
// message whole.
func TestRecordingKeepsWhatTheStoreCaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.mcpscope.jsonl")
	s, err := Open(Options{Name: "rec", Record: path, Transport: "stdio", Log: t.Logf, Capture: capture.Config{MaxBytes: 4096}})
	if err != nil {
		t.Fatal(err)
	}
	big := `{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("a", 3000) + `"}}`
	c := &fakeCarrier{}
	relay(t, s, hop(capture.Out, request(1, "resources/read", `{"uri":"f"}`)), c)
	relay(t, s, hop(capture.In, big), c)
	if st := s.Store().Stats(); st.Truncated == 0 {
		t.Fatalf("the store was to cap the answer's bytes: %+v", st)
	}
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	found := false
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if rec.Kind == recordings.RecFrame && rec.Frame.Dir == capture.In && rec.Frame.Chan.Kind == capture.Control {
			found = true
			if got := strings.TrimSpace(string(rec.Frame.Raw)); got != big {
				t.Errorf("the recording holds %d of the answer's %d bytes", len(got), len(big))
			}
		}
	}
	if !found {
		t.Fatal("the answer is not in the recording")
	}
}
