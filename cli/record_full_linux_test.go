package cli

// /dev/full, a file every write to fails with ENOSPC, exists on Linux only
// (hence this file's name); TestFullDiskBeforeTheHeaderStopsTheRecordingOnly
// proves the same with a writer that fails, on every system.

import (
	"os"
	"strings"
	"testing"
)

// --record on a file that takes nothing (/dev/full, a full disk) stops the
// recording, never the session: a headless run answers and exits 0,
// saying on stderr that the recording stopped, why, and that it holds no
// header (not "the 0 frames", as though it could be read);
// the TUI connects and says it in its status bar.
func TestFullRecordingFileStopsOnlyTheRecording(t *testing.T) {
	_, env := stubArgv(t, serveStdioMode)
	exe, _ := os.Executable()
	r := mcpscope(t, "tools", "--record", "/dev/full", "--env", env, "--", exe)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "echo") {
		t.Errorf("no tools listed: %s", r.stdout)
	}
	for _, want := range []string{
		"warning: the recording stopped: write /dev/full: no space left on device; the session goes on unrecorded\n",
		"warning: the recording /dev/full could not be written: it holds no header and is not a recording\n",
	} {
		if strings.Count(r.stderr, want) != 1 {
			t.Errorf("stderr does not say once %q:\n%s", want, r.stderr)
		}
	}
	tui := startTUI(t, "demo", "--record", "/dev/full")
	tui.waitFor(t, "MCP-Flow READY", "REC stopped: the recording stopped: write /dev/full: no space")
	if code := tui.quit(t); code != ExitOK {
		t.Fatalf("TUI exit %d; stderr: %s", code, tui.errb.String())
	}
}
