package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"al.essio.dev/pkg/shellescape"

	"github.com/spf13/cobra"
)

// hostPort recognises a TARGET given as HOST:PORT[/PATH], without the
// scheme that would make it a URL; compiled on first use, as only a
// mistyped TARGET needs it.
var hostPort = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?):([0-9]{1,5})(/.*)?$`)
})

// runnerOfScript is the command that runs a server script by its
// extension, for the command a file TARGET suggests.
func runnerOfScript(ext string) string {
	switch ext {
	case ".js", ".mjs", ".cjs":
		return "node"
	case ".ts":
		return "npx tsx"
	case ".py":
		return "python3"
	case ".rb":
		return "ruby"
	case ".sh":
		return "sh"
	case ".jar":
		return "java -jar"
	}
	return ""
}

// targetShape explains an argument in the TARGET's place that has the
// shape of something else: a HOST:PORT missing its scheme, or a program,
// script or folder on disk (a stdio server's command goes after "--").
// It returns nil for anything else. before are the arguments that came
// before it, for the command line it suggests.
func targetShape(cmd *cobra.Command, before []string, arg string) error {
	if m := hostPort().FindStringSubmatch(arg); m != nil {
		scheme, path := "http", m[4]
		if m[3] == "443" {
			scheme = "https"
		}
		if path == "" {
			path = "/mcp"
		}
		return usagef("%s is not a URL; did you mean %s://%s:%s%s?", quote(arg), scheme, m[1], m[3], path)
	}
	st, err := os.Stat(arg)
	switch {
	case err == nil && st.IsDir():
		return usagef("%s is a folder, not a TARGET: give a URL, the NAME of a configured server (mcpscope servers lists them) or a stdio server's command after \"--\"", quote(arg))
	case err == nil && st.Mode()&0o111 != 0:
		argv := arg
		if !strings.ContainsRune(arg, os.PathSeparator) && !strings.ContainsRune(arg, '/') {
			argv = "./" + arg // run from here, not looked up on PATH
		}
		return usagef("%s is a program, not a TARGET: put a stdio command after `--`, as in %s", quote(arg), suggestCommandLine(cmd, before, arg, argv))
	case err == nil:
		runner := runnerOfScript(strings.ToLower(filepath.Ext(arg)))
		if runner == "" {
			runner = "CMD"
		}
		return usagef("%s is a file, not a TARGET: put a stdio command after `--`, with what runs it, as in %s", quote(arg), suggestCommandLine(cmd, before, arg, runner+" "+shellWord(arg)))
	case strings.ContainsRune(arg, '/') || strings.HasPrefix(arg, "."):
		return usagef("%s is not a URL, and no file is there: put a stdio command after `--`, as in %s", quote(arg), suggestCommandLine(cmd, before, arg, "CMD [ARGS…]"))
	}
	return nil
}

// suggestCommandLine is the command line cmd would take with argv after
// "--" as its stdio server. Of the arguments before, cmd keeps those it
// takes before its TARGET (takenBefore); the others begin the stdio
// command, and then the last argument, arg, follows them as it was
// typed, in place of argv.
func suggestCommandLine(cmd *cobra.Command, before []string, arg, argv string) string {
	n := takenBefore(cmd, before)
	words := []string{cmd.CommandPath()}
	for _, b := range before[:n] {
		words = append(words, shellWord(b))
	}
	if rest := before[n:]; len(rest) > 0 {
		argv = ""
		for _, w := range append(rest, arg) {
			argv += " " + shellWord(w)
		}
		argv = argv[1:]
	}
	return strings.Join(append(words, "--", argv), " ")
}

// takenBefore is how many of the arguments before cmd's TARGET are its
// own: its positional arguments (positionalBeforeTarget), and then a
// PARAMS_JSON for call.
func takenBefore(cmd *cobra.Command, before []string) int {
	n := min(positionalBeforeTarget[cmd.Name()], len(before))
	if cmd.Name() == "call" && n < len(before) && paramsLike(before[n]) {
		n++
	}
	return n
}

// shellWord quotes s for a POSIX shell where it needs it.
func shellWord(s string) string { return shellescape.Quote(s) }
