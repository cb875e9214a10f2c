package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// sourceWords are words of mcpscope's sources that mean nothing to a
// newcomer: the numbered specs it was built from, and "dialect".
var sourceWords = regexp.MustCompile(`(?i)seed[ -]?0\d\d|dialect`)

// No --help, of mcpscope or of any command under it, speaks of seeds or
// dialects: it says interactive sessions, gateway streams, tool frames.
func TestHelpSpeaksTheUsersWords(t *testing.T) {
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		var out, errw bytes.Buffer
		if code := Execute(context.Background(), append(append([]string(nil), path...), "--help"), strings.NewReader(""), &out, &errw); code != 0 {
			t.Errorf("mcpscope %s --help exited %d: %s", strings.Join(path, " "), code, errw.String())
		}
		if w := sourceWords.FindAllString(out.String(), -1); len(w) > 0 {
			t.Errorf("mcpscope %s --help says %q", strings.Join(path, " "), w)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(NewRootCommand(), nil)
}

// demo --help speaks of the demo, which has no URL, and says that t does
// nothing on the transports without tools/list.
func TestDemoHelpWords(t *testing.T) {
	var out, errw bytes.Buffer
	if code := Execute(context.Background(), []string{"demo", "--help"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("demo --help exited %d: %s", code, errw.String())
	}
	help := out.String()
	if strings.Contains(help, "URL implies") {
		t.Errorf("demo --help speaks of a URL the demo has not:\n%s", help)
	}
	if !strings.Contains(help, "serve the demo over") || !strings.Contains(help, "t does nothing") {
		t.Errorf("demo --help does not say what --transport does or that t does nothing on tools-http/tools-ws:\n%s", help)
	}
}
