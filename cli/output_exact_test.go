package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Against the TypeScript reference: --raw saves a tool's one text content
// exactly (a tab and an escape kept as sent), --format text into a file
// keeps a text past what a terminal is shown, and --output through a
// symlink to a 0600 file writes that file and keeps the link and the mode.
func TestOutputTextExactTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "echo.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	message := "a\tb\x1b[31mc"
	r := mcpscope(t, withTarget(ts, "tool", "echo", "message="+message, "--raw", "--output", link)...)
	r.mustExit(t, ExitOK)
	if got, _ := os.ReadFile(real); string(got) != "Echo: "+message {
		t.Errorf("--raw saved %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v, %v", fi, err)
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the 0600 file became %v (%v)", fi.Mode().Perm(), err)
	}

	long := strings.Repeat("x", resulttext.TextMax+100)
	arg := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(arg, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "long-out.txt")
	r = mcpscope(t, withTarget(ts, "tool", "echo", "message=@"+arg, "--format", "text", "--output", saved)...)
	r.mustExit(t, ExitOK)
	if got, _ := os.ReadFile(saved); string(got) != "Echo: "+long+"\n" {
		t.Errorf("--format text --output saved %d bytes, want %d", len(got), len("Echo: "+long+"\n"))
	}
}
