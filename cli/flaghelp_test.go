package cli

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// helpText is what mcpscope ARGS --help prints.
func helpText(t *testing.T, args ...string) string {
	t.Helper()
	var out, errw bytes.Buffer
	if code := Execute(context.Background(), append(args, "--help"), strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("mcpscope %s --help exited %d: %s", strings.Join(args, " "), code, errw.String())
	}
	return out.String()
}

// helpSection is the block of help under the heading title ("" when there
// is none).
func helpSection(help, title string) string {
	for _, block := range strings.Split(help, "\n\n") {
		if rest, ok := strings.CutPrefix(block, title+":\n"); ok {
			return rest
		}
	}
	return ""
}

// flagName matches the long name of each flag a help block lists.
var flagName = regexp.MustCompile(`(?m)^[ \t]+(?:-\w, )?--([a-z-]+)`)

// A command's --help lists its own flags first, then the shared ones once
// each, under their headings; a flag that does nothing on a command (the
// TUI's --no-record on a headless one, --trace in the TUI) is not shown.
func TestHelpGroupsTheSharedFlags(t *testing.T) {
	shared := map[string]string{}
	for _, g := range flagGroups {
		for _, n := range g.names {
			shared[n] = g.title
		}
	}
	for _, c := range []struct {
		args   []string
		own    []string
		absent []string
	}{
		{[]string{"call"}, []string{"insist", "help"}, []string{"no-record"}},
		{[]string{"tools"}, []string{"help"}, []string{"no-record", "raw"}},
		{[]string{"stream"}, []string{"upload", "text", "meta", "chunk-size", "stream-out", "help"}, []string{"no-record", "format", "output", "raw", "log-level"}},
		{[]string{"script"}, []string{"answers", "tool", "args", "insist", "help"}, []string{"no-record", "format", "output", "raw"}},
		{[]string{"doctor"}, []string{"help"}, []string{"no-record", "trace", "progress", "stream-out", "record", "record-stream-max", "format", "output", "raw", "log-level", "meta", "findings"}},
		{nil, []string{"help", "version"}, []string{"trace", "progress", "format", "output", "raw", "meta", "findings"}},
		{[]string{"demo"}, []string{"help", "transport"}, []string{"trace", "progress", "format", "output", "raw", "meta", "findings"}},
		{[]string{"tool"}, []string{"insist", "help"}, []string{"no-record"}},
		{[]string{"read"}, []string{"help"}, []string{"no-record"}},
	} {
		name := "mcpscope " + strings.Join(c.args, " ")
		help := helpText(t, c.args...)
		var own []string
		for _, m := range flagName.FindAllStringSubmatch(helpSection(help, "Flags"), -1) {
			own = append(own, m[1])
		}
		for _, want := range c.own {
			if !strings.Contains(" "+strings.Join(own, " ")+" ", " "+want+" ") {
				t.Errorf("%s --help: --%s is not among its own flags %q", name, want, own)
			}
		}
		for _, n := range own {
			if _, ok := shared[n]; ok && !strings.Contains(strings.Join(c.own, " "), n) {
				t.Errorf("%s --help: the shared --%s is among its own flags", name, n)
			}
		}
		for _, g := range flagGroups {
			heading := 0 // once, unless the command ignores the group's every flag
			for _, n := range g.names {
				if !slices.Contains(c.absent, n) {
					heading = 1
				}
			}
			if got := strings.Count(help, "\n"+g.title+":\n"); got != heading {
				t.Errorf("%s --help: the heading %q is there %d times, want %d", name, g.title, got, heading)
			}
			for _, m := range flagName.FindAllStringSubmatch(helpSection(help, g.title), -1) {
				if shared[m[1]] != g.title {
					t.Errorf("%s --help: --%s is under %q", name, m[1], g.title)
				}
			}
		}
		listed := map[string]int{}
		for _, m := range flagName.FindAllStringSubmatch(help, -1) {
			listed[m[1]]++
		}
		for n := range shared {
			want := 1
			for _, a := range c.absent {
				if a == n {
					want = 0
				}
			}
			if listed[n] != want {
				t.Errorf("%s --help lists --%s %d times, want %d", name, n, listed[n], want)
			}
		}
	}
}

// A flag a command ignores is refused, naming it, with exit 2; the doctor
// refuses a network flag on a stdio server before it walks, as every
// command does; a headless command's --record says nothing of the TUI.
func TestIgnoredFlagsAreRefused(t *testing.T) {
	for _, args := range [][]string{
		{"doctor", "--record", "x.jsonl", "--", "true"},
		{"doctor", "--progress", "--", "true"},
		{"call", "--no-record", "tools/list", "--", "true"},
	} {
		r := mcpscope(t, args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--"+strings.TrimPrefix(args[1], "--")+" does not apply to mcpscope "+args[0]) || r.stdout != "" {
			t.Errorf("mcpscope %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	r := mcpscope(t, "doctor", "--header", "A: b", "--", "true")
	if r.code != ExitUsage || r.stderr != "error: --header is not supported by the stdio transport\n" || r.stdout != "" {
		t.Errorf("doctor --header on stdio: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if help := helpText(t, "call"); strings.Contains(help, "the TUI records") || !strings.Contains(help, "record the session to FILE") {
		t.Errorf("call --help:\n%s", helpSection(help, "Recording flags"))
	}
}
