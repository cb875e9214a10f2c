package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
)

// chattyNotes is how many notifications the chatty server sends.
const chattyNotes = 200

// chattyLogs is how many lines the chatty server writes on stderr after
// them: frames of the stderr channel, which the recording writes on its
// 100 ms timer rather than at once.
const chattyLogs = 5

// chattyDoneEnv names the file the chatty server creates once it has
// written every notification.
const chattyDoneEnv = "MCPSCOPE_CHATTY_DONE"

// chattyServer is a stdio server that answers initialize, sends
// chattyNotes notifications/message once initialized, then chattyLogs
// lines on stderr, creates the file chattyDoneEnv names, and answers nothing more (server/discover: method
// not found).
func chattyServer() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"logging":{}},"serverInfo":{"name":"chatty","version":"1"}}}`+"\n", m.ID, m.Params.ProtocolVersion)
		case "notifications/initialized":
			for i := range chattyNotes {
				fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"note %d"}}`+"\n", i)
			}
			_ = out.Flush()
			// After mcpscope has read the notifications: the stderr lines
			// are then the last frames, which only the flush timer writes.
			time.Sleep(300 * time.Millisecond)
			for i := range chattyLogs {
				fmt.Fprintf(os.Stderr, "chatty log %d\n", i)
			}
			_ = os.WriteFile(os.Getenv(chattyDoneEnv), nil, 0o600)
		case "server/discover":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
		}
		_ = out.Flush()
	}
}

// killRecording runs mcpscope with args (a recording session against the
// chatty server), waits until the server has sent every notification and
// the recording holds them and the stderr lines after them (which only
// the 100 ms flush timer writes), kills mcpscope with SIGKILL and returns
// the recording's path.
func killRecording(t *testing.T, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rec, done := filepath.Join(dir, "session"+recordings.Ext), filepath.Join(dir, "done")
	args = append(append([]string{}, args...), "--record", rec, "--env", roleEnv+"=chatty", "--env", chattyDoneEnv+"="+done, "--", exe)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), roleEnv+"=main")
	stdin, err := cmd.StdinPipe() // the TUI reads its keys here; nothing is typed
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(hangGuard)
	for {
		if _, err := os.Stat(done); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never sent its notifications within %s (no %s)", hangGuard, done)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The kill comes once the file holds every frame: waiting on the file,
	// not on a time, whatever the machine's load. A recording that never
	// gets them (no flush timer) fails here, as it would after the kill.
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(20 * time.Millisecond) {
		notes, logs := recorded(rec)
		if len(notes) == chattyNotes && logs == chattyLogs {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s the recording holds %d of %d notifications and %d of %d stderr lines", hangGuard, len(notes), chattyNotes, logs, chattyLogs)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	return rec
}

// recordedFrames reads the recording at path as far as it goes (it may be
// still being written, or cut short) and returns the params of its
// notifications/message, in order, and how many chatty stderr lines it
// holds; err is what stopped the reading other than its end.
func recordedFrames(path string) (notes []string, logs int, ended bool, err error) {
	r, err := recordings.Open(path)
	if err != nil {
		return nil, 0, false, err
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		var te *recordings.TruncatedError
		if err == io.EOF || errors.As(err, &te) {
			return notes, logs, r.Ended(), nil
		}
		if err != nil {
			return notes, logs, false, fmt.Errorf("after %d notifications: %w", len(notes), err)
		}
		if f := rec.Frame; rec.Kind == recordings.RecFrame && f.Msg != nil && f.Msg.Method == "notifications/message" {
			notes = append(notes, string(f.Msg.Params))
		}
		if f := rec.Frame; rec.Kind == recordings.RecFrame && strings.HasPrefix(string(f.Raw), "chatty log ") {
			logs++
		}
	}
}

// recorded is recordedFrames while the session runs: a file not yet
// there or not yet readable holds nothing so far.
func recorded(path string) (notes []string, logs int) {
	notes, logs, _, _ = recordedFrames(path)
	return notes, logs
}

// assertNotes checks that the recording opens, was cut short (no end
// line), and holds every notification the server sent, in order.
func assertNotes(t *testing.T, path string) {
	t.Helper()
	notes, logs, ended, err := recordedFrames(path)
	if err != nil {
		t.Fatal(err)
	}
	if ended {
		t.Error("a killed session's recording says it ended cleanly")
	}
	if logs != chattyLogs {
		t.Errorf("%d stderr lines recorded, want %d", logs, chattyLogs)
	}
	if len(notes) != chattyNotes {
		t.Fatalf("%d notifications recorded, want %d", len(notes), chattyNotes)
	}
	for i, n := range notes {
		if !strings.Contains(n, fmt.Sprintf(`"note %d"`, i)) {
			t.Fatalf("notification %d is %s", i, n)
		}
	}
}

// kill -9 of a recording `call` mid-session (waiting for an answer that
// never comes): the file opens and holds every frame captured before.
func TestKilledCallKeepsItsRecording(t *testing.T) {
	assertNotes(t, killRecording(t, "call", "--timeout", neverTimeout, "tools/list"))
}

// kill -9 of a recording TUI: the file opens and holds every frame
// captured before.
func TestKilledTUIKeepsItsRecording(t *testing.T) {
	assertNotes(t, killRecording(t))
}
