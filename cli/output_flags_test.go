package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// The output flags are refused, before anything connects, where no
// result is printed, with a value they do not take, or in a combination
// that cannot be honoured; export keeps its own --format.
func TestFormatFlagsRefused(t *testing.T) {
	never := filepath.Join(t.TempDir(), "never-started") // nothing is started: a usage error comes first
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"doctor", "--format", "json", "--", never}, "--format does not apply to mcpscope doctor"},
		{[]string{"script", "--output", "x", "--", never}, "--output does not apply to mcpscope script"},
		{[]string{"stream", "--raw", "m", "--", never}, "--raw does not apply to mcpscope stream"},
		{[]string{"demo", "--format", "text"}, "--format does not apply to mcpscope demo"},
		{[]string{"--output", "x", "--", never}, "--output does not apply to mcpscope"},
		{[]string{"replay", "x.jsonl", "--format", "json"}, "--format does not apply to mcpscope replay"},
		{[]string{"tools", "--raw", "--", never}, "--raw does not apply to mcpscope tools"},
		{[]string{"tools", "--format", "yaml", "--", never}, `--format must be text or json, got "yaml"`},
		{[]string{"call", "--raw", "--format", "json", "ping", "--", never}, "--raw writes the bytes of a content, not --format json"},
		{[]string{"call", "--output", dir, "ping", "--", never}, "--output " + dir + " is a directory"},
		{[]string{"call", "--output", filepath.Join(dir, "no", "x"), "ping", "--", never}, "--output " + filepath.Join(dir, "no", "x") + ": its directory does not exist"},
		{[]string{"call", "--output", "x", "subscriptions/listen", "--", never}, "--output and --raw take one result; subscriptions/listen prints a message a line"},
	} {
		r := mcpscope(t, c.args...)
		if r.code != ExitUsage || r.stderr != "error: "+c.want+"\n" {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	r := mcpscope(t, "export", "--format", "text", filepath.Join(dir, "missing.jsonl"))
	if strings.Contains(r.stderr, "does not apply") {
		t.Errorf("export's own --format is refused: %q", r.stderr)
	}
}

// A command that defines its own --format before the shared flags keeps
// it: not hidden, not refused, not filed under "Output flags".
func TestFormatOwnFlagKept(t *testing.T) {
	root := &cobra.Command{Use: "mcpscope"}
	var own string
	cmd := &cobra.Command{Use: "lint", RunE: func(*cobra.Command, []string) error { return nil }}
	cmd.Flags().StringVar(&own, "format", "text", "text, json, sarif or junit")
	(&runFlags{}).register(cmd.Flags())
	root.AddCommand(cmd)
	arrangeFlags(root)
	fl := cmd.Flags().Lookup("format")
	if fl.Hidden || fl.Usage != "text, json, sarif or junit" || len(fl.Annotations[flagGroupKey]) != 0 {
		t.Errorf("lint's own --format: hidden %v, usage %q, annotations %v", fl.Hidden, fl.Usage, fl.Annotations)
	}
	if !cmd.Flags().Lookup("output").Hidden {
		t.Error("the shared --output is not hidden on a command that prints no result")
	}
	root.SetArgs([]string{"lint", "--format", "sarif"})
	if err := root.Execute(); err != nil || own != "sarif" {
		t.Errorf("lint --format sarif: %v, %q", err, own)
	}
}
