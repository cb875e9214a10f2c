package live

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// FuzzCommand decodes what a viewer sends the hub: anything is a command
// or an error, never a panic.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		`{"ref":1,"op":"pause","filters":[{"method":"tools/call","dir":"host"}]}`,
		`{"ref":2,"op":"decide","held":3,"body":"eyJqc29ucnBjIjoiMi4wIn0="}`,
		`{"ref":3,"op":"decide","held":3,"drop":true}`,
		`{"ref":4,"op":"inject","body":"e30="}`,
		`{"ref":5,"op":"faults","faults":[{"Match":{"method":"x"},"Action":"delay","Delay":1000}]}`,
		`{"ref":0,"op":"pause"}`, `{"ref":1,"op":"pause"} {}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeCommand(b)
		if err == nil && (c.Ref == 0 || c.Op == "") {
			t.Errorf("%q decoded to %+v", b, c)
		}
	})
}

// streamConn is a hub's stream held in memory.
type streamConn struct{ io.Reader }

func (streamConn) Write(p []byte) (int, error) { return len(p), nil }
func (streamConn) Close() error                { return nil }

// FuzzViewerStream reads what a hub sends a viewer: a recording's lines
// mixed with hub lines. Anything ends the stream cleanly or with an
// error, never a panic or a hang.
func FuzzViewerStream(f *testing.F) {
	header := `{"format":"mcpscope-recording","version":1,"mcpscope":"dev","target":"x","transport":"stdio","started":"2026-05-01T10:00:00Z","redaction":"default","stream_max":67108864,"proxy":"x"}` + "\n"
	for _, s := range []string{
		header + `{"k":"live","state":{"filters":[{"method":"x"}],"faults":null,"held":[{"N":1,"Seq":1,"Dir":0,"Method":"m","Tool":"","Body":"e30=","Since":"2026-05-01T10:00:00Z","Rule":"m"}]}}` + "\n" +
			`{"k":"frame","t":1,"seq":1,"dir":"out","ch":"control","text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}"}` + "\n" +
			`{"k":"frame","t":2,"dir":"in","ch":"proxy","text":"{\"proxy\":\"missed\",\"note\":\"12 frames skipped: this viewer fell behind the session\"}"}` + "\n" +
			`{"k":"live","ref":3,"id":"mcpscope-1"}` + "\n" + `{"k":"end"}` + "\n",
		header + `{"k":"live","bye":"no"}` + "\n",
		header + `{"k":"live",` + "\n",
		header + `{"k":"frame","t":1,"dir":"sideways"}` + "\n" + `{"k":"fr`,
		`{"k":"live"}` + "\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := attach(context.Background(), streamConn{bytes.NewReader(b)}, capture.Config{MaxFrames: 64})
		if err != nil {
			return
		}
		<-v.Done()
		if v.Missed() < 0 {
			t.Errorf("missed %d", v.Missed())
		}
		_ = v.Store().Last(64)
		_ = v.Held()
	})
}

// FuzzRestoreHeld feeds the restoring of a paused message's credentials
// any edit of any message (what a viewer sends): it never panics, and
// gives back the message whole when the edit kept what was shown.
func FuzzRestoreHeld(f *testing.F) {
	f.Add([]byte(`{"params":{"password":"AAAA","client_secret":"BBBB"}}`), []byte(`{"params":{"client_secret":"[redacted 4 bytes #2]"}}`))
	f.Add([]byte(`{"a":"[redacted 4 bytes #1]","password":"AAAA"}`), []byte(`{"a":"[redacted 4 bytes #1]"}`))
	f.Add([]byte("grant_type=x&code=C0DE&refresh_token=R"), []byte("code=[redacted 4 bytes #1]&x=[redacted 1 bytes #2]"))
	f.Fuzz(func(t *testing.T, original, edited []byte) {
		if got, err := restoreHeld(heldShown(original), original); err == nil && !bytes.Equal(got, original) {
			t.Fatalf("the shown message came back as %q, not %q", got, original)
		}
		_, _ = restoreHeld(edited, original)
	})
}
