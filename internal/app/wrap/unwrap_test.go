package wrap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// Two entries wrapped in turn, the first edited by hand: --force on it is
// refused while the second is wrapped too (writing back the file as it
// was before the first wrap would undo the second's), and says what it
// would undo; --force-all does it. The second entry, back to its
// original text, is then already unwrapped: its unwrap removes the
// backup and writes nothing (it used to ask for --force, which would
// have re-wrapped the first entry with its backup gone).
func TestUnwrapForceWithAnotherBackupAndAnEntryAlreadyBack(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"A"},"b":{"command":"B"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	bdir := filepath.Join(dir, "w")
	ba, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", bdir)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "b", bdir)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	edited := bytes.Replace(data, []byte(`"--", "A"]`), []byte(`"--", "A", "-v"]`), 1)
	if err := os.WriteFile(p, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	var changed *ChangedError
	if _, err := Unwrap(ba, Options{}); !errors.As(err, &changed) {
		t.Fatalf("unwrap of an edited entry: %v", err)
	}
	var others *OthersError
	_, err = Unwrap(ba, Options{Force: true})
	if !errors.As(err, &others) || len(others.Others) != 1 || others.Others[0].Name != "b" {
		t.Fatalf("--force with b wrapped too: %v", err)
	}
	for _, want := range []string{`"b"`, "--force-all", "every change made to the file since would be undone"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %s:\n%v", want, err)
		}
	}
	if now, _ := os.ReadFile(p); !bytes.Equal(now, edited) {
		t.Fatalf("the refusal wrote the file:\n%s", now)
	}
	res, err := Unwrap(ba, Options{Force: true, ForceAll: true})
	if err != nil || res.Outcome != Forced {
		t.Fatalf("--force-all: %+v %v", res, err)
	}
	if now, _ := os.ReadFile(p); string(now) != orig {
		t.Fatalf("--force-all gave\n%s", now)
	}
	res, err = Unwrap(bb, Options{})
	if err != nil || res.Outcome != AlreadyUnwrapped || res.Edited {
		t.Fatalf("unwrap of b, already back: %+v %v", res, err)
	}
	if now, _ := os.ReadFile(p); string(now) != orig || backupsIn(t, bdir) != 0 {
		t.Fatalf("the file is\n%s\nwith %d backups", now, backupsIn(t, bdir))
	}
}

// An entry edited since wrap to run its server directly is already
// unwrapped: the file is left as it is, even with --force, and the backup
// removed. A second unwrap of the same backup says it is gone.
func TestUnwrapEntryEditedToRunDirectly(t *testing.T) {
	dir := t.TempDir()
	const orig = `{"mcpServers":{"a":{"command":"A"},"b":{"command":"B"}}}`
	p := configFile(t, dir, "claude_desktop_config.json", orig)
	b, err := wrapEntry(t, p, mcpconfig.ClaudeDesktop, "a", filepath.Join(dir, "w"))
	if err != nil {
		t.Fatal(err)
	}
	const by = `{"mcpServers":{"a":{"command":"A2","args":["-v"]},"b":{"command":"B"}}}`
	if err := os.WriteFile(p, []byte(by), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Unwrap(b, Options{Force: true})
	if err != nil || res.Outcome != AlreadyUnwrapped || !res.Edited {
		t.Fatalf("unwrap: %+v %v", res, err)
	}
	if now, _ := os.ReadFile(p); string(now) != by {
		t.Fatalf("unwrap wrote\n%s", now)
	}
	if _, err := Unwrap(b, Options{}); !errors.Is(err, ErrNotWrapped) {
		t.Fatalf("a second unwrap: %v", err)
	}
}
