package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/recordings"
)

// A session recorded with credentials on the command line holds none of
// their bytes: not the bearer token, not a key header's value, not a
// secret --env value, even when the server echoes them back; the request
// still carried them (the server answered), and the file says what was
// redacted and how long it was.
func TestRecordingHoldsNoSecretBytes(t *testing.T) {
	target, stop, err := startHTTPDemo(context.Background(), "http")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	token := "tok-" + strings.Repeat("Zq9", 13)
	path := filepath.Join(t.TempDir(), "s"+recordings.Ext)
	r := mcpscope(t, "call", "--record", path, "--header", "Authorization: Bearer "+token, "--header", "X-Team-Key: k7",
		"tools/call", callTool(t, "echo", map[string]any{"message": "my token is " + token}), target.URL.String())
	if got := toolText(t, r); !strings.Contains(got, "my token is") {
		t.Fatalf("echo %q", got)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{token, "Zq9Zq9", "X-Team-Key: k7"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the recording holds %q", secret)
		}
	}
	if !strings.Contains(string(b), "<redacted "+itoa(len(token))+" bytes>") {
		t.Error("the recording does not say what it redacted")
	}
	assertRecordingReads(t, path, "http")
}

func itoa(n int) string { return strconv.Itoa(n) }

// --no-redact keeps the credentials in the recording.
func TestRecordingNoRedactKeepsSecrets(t *testing.T) {
	target, stop, err := startHTTPDemo(context.Background(), "http")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	path := filepath.Join(t.TempDir(), "s"+recordings.Ext)
	mcpscope(t, "tools", "--record", path, "--no-redact", "--header", "Authorization: Bearer visible-token-123", target.URL.String())
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "visible-token-123") {
		t.Error("--no-redact lost the credential")
	}
}

// assertRecordingReads reads a recording to its clean end: a header for
// transport, a link line, frames both ways.
func assertRecordingReads(t *testing.T, path, transport string) {
	t.Helper()
	rd, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if h := rd.Header(); h.Transport != transport || h.Mcpscope == "" {
		t.Errorf("header %+v", h)
	}
	dirs, link := map[string]int{}, false
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch rec.Kind {
		case recordings.RecFrame:
			dirs[rec.Frame.Dir.String()]++
		case recordings.RecLink:
			link = rec.Era != ""
		}
	}
	if !rd.Ended() || !link || dirs["out"] == 0 || dirs["in"] == 0 {
		t.Errorf("ended %v, link %v, frames %v", rd.Ended(), link, dirs)
	}
}

// mcpscope stream --record keeps the gateway stream: replayed, the store
// shows its chunks, bytes and its done mark.
func TestStreamRecords(t *testing.T) {
	theirs := gateway.NewGUID()
	meta := &gateway.StreamMeta{Method: "system_binary_streams_out", Binary: true}
	g := serverStream(theirs, meta, func(ctx context.Context, c *websocket.Conn) {
		for i, part := range []string{"hello ", "gateway"} {
			_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, theirs, int64(i), []byte(part)))
		}
		sendMsg(ctx, c, &gateway.StreamMessage{Type: gateway.StreamDone, ID: theirs, Summary: json.RawMessage(`{"totalChunks":2,"totalBytes":13}`)})
	})
	path := filepath.Join(t.TempDir(), "s"+recordings.Ext)
	mcpscope(t, "stream", "--record", path, "--stream-out", t.TempDir(), "system_binary_streams_out", g.url(t)).mustExit(t, ExitOK)
	store, rd := rectest.Replay(t, path)
	var found bool
	for _, st := range store.Streams() {
		if st.Bytes == 13 && st.Chunks == 2 && st.State == capture.StreamDone {
			found = true
		}
	}
	if !found || !rd.Ended() {
		t.Errorf("streams %+v, ended %v", store.Streams(), rd.Ended())
	}
}

// The TUI records every session into the state directory unless
// --no-record: the file names the target, closes cleanly on quit and
// lists with its frames; on exit the TUI says where it recorded and how
// to replay it.
func TestTUIRecordsIntoTheStateDirectory(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "mcpscope", "recordings")
	r := startTUI(t, "demo", "--no-record")
	r.waitFor(t, "MCP-Flow READY", "result · tools/list")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
	if got, _ := recordings.List(dir); len(got) != 0 {
		t.Fatalf("--no-record recorded %+v", got)
	}
	if strings.Contains(r.errb.String(), "recorded to") {
		t.Errorf("--no-record says it recorded: %s", r.errb.String())
	}
	r = startTUI(t, "demo")
	r.waitFor(t, "MCP-Flow READY", "result · tools/list")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
	got, err := recordings.List(dir)
	if err != nil || len(got) != 1 {
		t.Fatalf("recordings %+v, %v", got, err)
	}
	e := got[0]
	if e.Err != nil || !e.Ended || e.Frames < 4 || e.Header.Transport != "wt" || !strings.Contains(e.Header.Target, "://127.0.0.1:") || !strings.Contains(e.Path, "-127.0.0.1_") {
		t.Errorf("recording %+v", e)
	}
	if want := "recorded to " + e.Path + " · mcpscope replay " + e.Path + "\n"; !strings.HasSuffix(r.errb.String(), want) {
		t.Errorf("on exit the TUI said %q, not where it recorded (%q)", r.errb.String(), want)
	}
	if st, _ := os.Stat(e.Path); st.Mode().Perm() != 0o600 {
		t.Errorf("the recording is readable by others: %v", st.Mode())
	}
}

// replay without recordings says where they would be and exits 0; a
// missing or broken FILE is a usage error; two FILEs are refused.
func TestReplayCommandErrors(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := mcpscope(t, "replay")
	if r.code != ExitOK || !strings.Contains(r.stdout, "no recordings in ") {
		t.Errorf("no recordings: exit %d, %q", r.code, r.stdout)
	}
	if r := mcpscope(t, "replay", filepath.Join(t.TempDir(), "missing"+recordings.Ext)); r.code != ExitUsage || !strings.Contains(r.stderr, "opening the recording") {
		t.Errorf("missing file: exit %d, %q", r.code, r.stderr)
	}
	junk := filepath.Join(t.TempDir(), "junk")
	_ = os.WriteFile(junk, []byte("hello\n"), 0o600)
	if r := mcpscope(t, "replay", junk); r.code != ExitUsage || !strings.Contains(r.stderr, "not an mcpscope recording") {
		t.Errorf("junk: exit %d, %q", r.code, r.stderr)
	}
	if r := mcpscope(t, "replay", "a", "b"); r.code != ExitUsage {
		t.Errorf("two files: exit %d", r.code)
	}
}

// mcpscope replay FILE opens the TUI on the recording; q quits.
func TestReplayOpensTheTUI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s"+recordings.Ext)
	_, env := stubArgv(t, serveStdioMode)
	exe, _ := os.Executable()
	mcpscope(t, "tools", "--record", path, "--env", env, "--", exe).mustExit(t, ExitOK)
	r := startTUI(t, "replay", path)
	r.waitFor(t, "REPLAY ■ end", "result · tools/list", "stdio")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// A stdio target's secret-named flags and assignments are redacted in a
// recording's header and file name.
func TestRecordTargetRedactsArgv(t *testing.T) {
	target := Target{Transport: "stdio", Argv: []string{"node", "srv.js", "--api-key=sk-live-123", "--token", "abc123", "API_SECRET=xyz", "--port", "8080"}}
	got := recordTarget(target)
	want := "node srv.js --api-key=<redacted 11 bytes> --token <redacted 6 bytes> API_SECRET=<redacted 3 bytes> --port 8080"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if p := recordings.NewPath("d", got, time.Now()); strings.Contains(p, "sk-live") || strings.Contains(p, "abc123") {
		t.Errorf("path %s", p)
	}
	u, _ := url.Parse("https://user:pw@example.com/mcp?api_key=k123&x=1")
	if got := recordTarget(Target{Transport: "http", URL: u}); strings.Contains(got, ":pw@") || strings.Contains(got, "k123") || !strings.Contains(got, "x=1") {
		t.Errorf("url %s", got)
	}
}

// A headless HTTP session's SSE streams point at their first event's
// frame once replayed: the Writer numbers the frames of a run without a
// Store.
func TestHeadlessRecordingKeepsSSEFrames(t *testing.T) {
	target, stop, err := startHTTPDemo(context.Background(), "http")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	path := filepath.Join(t.TempDir(), "s"+recordings.Ext)
	mcpscope(t, "call", "--protocol", "2025-11-25", "--record", path, "tools/call", callTool(t, "analyze", map[string]any{"steps": 2, "interval_ms": 1}), target.URL.String()).mustExit(t, ExitOK)
	store, _ := rectest.Replay(t, path)
	sse := store.SSEStreams()
	if len(sse) == 0 {
		t.Fatal("no SSE stream replayed")
	}
	for _, s := range sse {
		f, ok := store.Get(s.FirstSeq)
		if s.Events > 0 && (!ok || f.Conn != s.Conn) {
			t.Errorf("SSE stream %s: first event at seq %d, %v", s.Conn, s.FirstSeq, ok)
		}
	}
}
