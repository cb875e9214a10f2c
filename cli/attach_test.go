package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/proxy/live"
)

// liveSession opens an unrecorded proxied session called name, started
// at started, and publishes it; both end with the test.
func liveSession(t *testing.T, name, target string, started time.Time) *live.Hub {
	t.Helper()
	s, err := proxy.Open(proxy.Options{Name: name, Target: target, Transport: "stdio", NoRecord: true,
		Clock: func() time.Time { return started }, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	h, err := live.Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Close(nil)
		h.Close()
	})
	return h
}

// privateRuntime gives the test a runtime directory of its own: no other
// test's live sessions are in it.
func privateRuntime(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
}

// until waits, within guard.Hang, until ok holds.
func until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after %s for %s", guard.Hang, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestAttachListsLiveSessions(t *testing.T) {
	privateRuntime(t)
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	liveSession(t, "older", "server --a", t0)
	liveSession(t, "newer", "evil \x1b]0;title\x07 server", t0.Add(time.Minute))
	r := mcpscope(t, "attach", "--list")
	r.mustExit(t, ExitOK)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "name") || !strings.HasPrefix(lines[1], "newer") || !strings.HasPrefix(lines[2], "older") {
		t.Fatalf("attach --list:\n%s", r.stdout)
	}
	if !strings.Contains(lines[2], "server --a") || !strings.Contains(lines[2], "stdio") {
		t.Errorf("the older session's line: %q", lines[2])
	}
	if strings.ContainsRune(r.stdout, '\x1b') || strings.ContainsRune(r.stdout, '\a') {
		t.Errorf("a target's control bytes reached the terminal: %q", r.stdout)
	}
	if r := mcpscope(t, "attach", "--list", "newer"); strings.Count(r.stdout, "\n") != 2 {
		t.Errorf("attach --list newer:\n%s", r.stdout)
	}
}

func TestAttachWithoutALiveSessionSaysHowToStartOne(t *testing.T) {
	privateRuntime(t)
	r := mcpscope(t, "attach")
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "mcpscope proxy --name NAME") {
		t.Errorf("attach with nothing live says: %s", r.stderr)
	}
	if r := mcpscope(t, "attach", "--list"); r.code != ExitOK || r.stdout != "" {
		t.Errorf("attach --list with nothing live: %d %q", r.code, r.stdout)
	}
}

// ctrlC presses ctrl+c until mcpscope exits, and returns its code.
func (r *tuiRun) ctrlC(t *testing.T) int {
	t.Helper()
	deadline := time.After(guard.Hang)
	for {
		go func() { _, _ = r.keys.Write([]byte{3}) }()
		select {
		case code := <-r.code:
			return code
		case <-time.After(time.Second):
		case <-deadline:
			t.Fatal("mcpscope did not quit")
			return -1
		}
	}
}

func TestAttachWaitsForTheNamedSession(t *testing.T) {
	privateRuntime(t)
	r := startTUI(t, "attach", "later")
	until(t, "the waiting line", func() bool { return strings.Contains(r.errb.String(), "waiting for later to start") })
	h := liveSession(t, "later", "server", time.Now())
	until(t, "attach to join the session", func() bool { return h.Viewers() == 1 })
	if code := r.ctrlC(t); code != ExitOK {
		t.Errorf("attach exited %d; stderr: %s", code, r.errb.String())
	}
	until(t, "attach to leave the session", func() bool { return h.Viewers() == 0 })
}

func TestAttachPicksAmongSeveralSessions(t *testing.T) {
	privateRuntime(t)
	t0 := time.Now()
	older := liveSession(t, "first", "server one", t0)
	newer := liveSession(t, "second", "server two", t0.Add(time.Second))
	r := startTUI(t, "attach")
	r.waitFor(t, "Live proxied sessions", "first", "second")
	go func() { _, _ = r.keys.Write([]byte("\r")) }()
	until(t, "attach to join the newest session", func() bool { return newer.Viewers() == 1 })
	if older.Viewers() != 0 {
		t.Error("attach joined the older session too")
	}
	if code := r.ctrlC(t); code != ExitOK {
		t.Errorf("attach exited %d; stderr: %s", code, r.errb.String())
	}
}
