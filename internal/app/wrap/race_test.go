package wrap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// onRecheck makes the next n re-reads before a rename find the file
// changed by a host: each appends a space to it.
func onRecheck(t *testing.T, n int) {
	t.Helper()
	old := beforeRecheck
	t.Cleanup(func() { beforeRecheck = old })
	beforeRecheck = func(path string) {
		if n == 0 {
			return
		}
		n--
		data, err := os.ReadFile(path)
		if err == nil {
			err = os.WriteFile(path, append(data, ' '), 0o600)
		}
		if err != nil {
			t.Error(err)
		}
	}
}

// A host that rewrites the file while wrap writes it keeps its write:
// wrap starts over once from the host's file; a host that does it again
// gets a clear refusal, its file as it wrote it, and no backup.
func TestWrapKeepsAHostsWriteMeanwhile(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"node"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	bdir := filepath.Join(dir, "w")
	onRecheck(t, 1)
	b, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", bdir)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if cmd, _ := hostCommand(t, data, "mcpServers", "a"); cmd != testExe || !bytes.HasSuffix(data, []byte("} ")) {
		t.Fatalf("after a host's write meanwhile the file is\n%q", data)
	}
	if string(b.Original) != orig+" " {
		t.Errorf("the backup holds %q, not the host's file", b.Original)
	}
	if _, err := Unwrap(b, Options{}); err != nil {
		t.Fatal(err)
	}

	onRecheck(t, 2)
	_, err = wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", bdir)
	if !errors.Is(err, errRaced) || !strings.Contains(err.Error(), "try again") {
		t.Fatalf("wrap while the host keeps writing: %v", err)
	}
	if data, _ := os.ReadFile(p); string(data) != orig+"   " || backupsIn(t, bdir) != 0 {
		t.Errorf("the file is %q, %d backups", data, backupsIn(t, bdir))
	}
}

// The same for unwrap: a host's write meanwhile is kept, the entry is
// restored in the host's file.
func TestUnwrapKeepsAHostsWriteMeanwhile(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"node"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	b, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", filepath.Join(dir, "w"))
	if err != nil {
		t.Fatal(err)
	}
	onRecheck(t, 1)
	res, err := Unwrap(b, Options{})
	if err != nil || res.Outcome != EntryRestored {
		t.Fatalf("unwrap: %+v %v", res, err)
	}
	if data, _ := os.ReadFile(p); string(data) != orig+" " {
		t.Errorf("unwrap gave %q, want the host's write kept", data)
	}
}

// One wrap or unwrap at a time: while another holds the lock of the
// backup directory, wrap waits, and says so when it cannot get it.
func TestWrapWaitsForTheLock(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"node"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	bdir := filepath.Join(dir, "w")
	unlock, err := lockDir(bdir)
	if err != nil {
		t.Fatal(err)
	}
	old := lockWait
	lockWait = 0
	t.Cleanup(func() { lockWait = old })
	if _, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", bdir); !errors.Is(err, ErrBusy) {
		t.Fatalf("wrap while the lock is held: %v", err)
	}
	unlock()
	if _, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", bdir); err != nil {
		t.Fatal(err)
	}
}

// Entries of one file wrapped at once by several runs are all wrapped:
// none rewrites the file from a copy older than another's write.
func TestWrapConcurrentRunsLoseNoWrite(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a", "b", "c", "d", "e", "f"}
	var entries []string
	for _, n := range names {
		entries = append(entries, `"`+n+`":{"command":"`+n+`-server"}`)
	}
	p := configFile(t, dir, "claude_desktop_config.json", `{"mcpServers":{`+strings.Join(entries, ",")+`}}`)
	bdir := filepath.Join(dir, "w")
	servers := map[string]mcpconfig.Server{}
	for _, n := range names {
		servers[n] = serverOf(t, p, mcpconfig.ClaudeDesktop, n, "")
	}
	errs := make(chan error, len(names))
	for _, n := range names {
		go func() {
			_, err := Wrap(Request{Server: servers[n], Exe: testExe, Session: n, BackupDir: bdir, Now: time.Now})
			errs <- err
		}()
	}
	for range names {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	data, _ := os.ReadFile(p)
	for _, n := range names {
		if cmd, _ := hostCommand(t, data, "mcpServers", n); cmd != testExe {
			t.Errorf("%s is not wrapped:\n%s", n, data)
		}
	}
}
