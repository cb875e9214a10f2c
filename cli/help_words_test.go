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
