package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/wrap"
	"github.com/mcpscope/mcpscope/proxy"
)

// wrapHosts are the formats whose files wrap rewrites (--host).
var wrapHosts = []mcpconfig.Format{mcpconfig.ClaudeDesktop, mcpconfig.ClaudeCode, mcpconfig.Cursor, mcpconfig.VSCode, mcpconfig.Windsurf, mcpconfig.Inspector}

// wrapChoice is how wrap and unwrap pick one entry among several of the
// same name: --config FILE or --host HOST.
type wrapChoice struct {
	config, host string
}

func (c *wrapChoice) flags(cmd *cobra.Command, verb string) {
	cmd.Flags().StringVar(&c.config, "config", "", verb+" the entry of this config `FILE` when several files have NAME")
	cmd.Flags().StringVar(&c.host, "host", "", verb+" the entry of this `HOST`'s file: "+hostList())
}

func hostList() string {
	names := make([]string, len(wrapHosts))
	for i, h := range wrapHosts {
		names[i] = string(h)
	}
	return strings.Join(names, ", ")
}

// check refuses an unknown --host.
func (c *wrapChoice) check() error {
	if c.host != "" && !slices.Contains(wrapHosts, mcpconfig.Format(c.host)) {
		return usagef("--host %s: mcpscope wraps the entries of %s", quote(c.host), hostList())
	}
	return nil
}

// newWrapCommand builds `mcpscope wrap NAME`.
func newWrapCommand() *cobra.Command {
	var choice wrapChoice
	var faults string
	cmd := &cobra.Command{
		Use:   "wrap NAME",
		Short: "Route a host's config entry through mcpscope proxy",
		Long: "wrap rewrites the config entry NAME in the host's own file (Claude Desktop, Claude Code,\n" +
			"Cursor, VS Code, Windsurf: the files mcpscope servers reads) so that the host runs the server\n" +
			"through mcpscope proxy --name NAME: every message is recorded and mcpscope attach NAME shows\n" +
			"it live. Only the entry's command and args (or its url) change; every other byte of the file\n" +
			"stays as it is, comments and layout included. A stdio entry runs mcpscope proxy -- followed by\n" +
			"its own command line; a remote entry (url) becomes a stdio bridge the host launches and stops\n" +
			"with its session: mcpscope proxy [--transport sse] [--header 'K: V'] URL.\n" +
			"The file as it was is kept in mcpscope's state directory; mcpscope unwrap NAME puts it back.\n" +
			"The file is written only if it did not change while wrap rewrote it (a host may rewrite it at\n" +
			"any time); --faults FILE is loaded and checked first. The entry runs this binary by its path,\n" +
			"whose file name must be mcpscope (how servers and unwrap know a wrapped entry).\n" +
			"Restart or reload the host afterwards so that it starts the entry again.",
		Example: "  mcpscope wrap everything\n  mcpscope attach everything\n  mcpscope wrap github --host vscode\n" +
			"  mcpscope wrap everything --faults faults.yaml\n  mcpscope unwrap everything",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWrap(cmd, args[0], choice, faults)
		},
	}
	choice.flags(cmd, "wrap")
	cmd.Flags().StringVar(&faults, "faults", "", "make the wrapped entry's proxy apply the fault rules of `FILE` (mcpscope proxy --faults)")
	return cmd
}

// runWrap finds the entry, names its session and wraps it.
func runWrap(cmd *cobra.Command, name string, choice wrapChoice, faults string) error {
	if err := choice.check(); err != nil {
		return err
	}
	var flags []string
	if faults != "" {
		abs, err := filepath.Abs(faults)
		if err == nil {
			_, err = proxy.LoadFaults(abs)
		}
		if err != nil {
			return usagef("--faults: %s; the config file is left as it was", termtext.Line(err.Error()))
		}
		flags = []string{"--faults", abs}
	}
	c, err := loadConfigured(choice.config)
	if err != nil {
		return err
	}
	s, err := c.wrapTarget(name, choice)
	if err != nil {
		return err
	}
	if s.Wrapped {
		return usagef("%s is already wrapped in %s; mcpscope unwrap %s restores it", quote(name), homeShort(c.env.Home, s.Source), name)
	}
	session := name
	if proxy.CheckName(session) != nil {
		session = proxy.SafeName(name)
	}
	exe, err := mcpscopeExecutable()
	if err != nil {
		return err
	}
	dir, err := wrap.Dir()
	if err != nil {
		return err
	}
	b, err := wrap.Wrap(wrap.Request{Server: s, Cwd: c.env.Cwd, Exe: exe, Session: session, Flags: flags, BackupDir: dir})
	if err != nil {
		return &UsageError{Err: err}
	}
	out := streamsOf(cmd).out
	kind := "the stdio shim"
	if s.Transport != "stdio" {
		kind = "a stdio bridge to " + redactURL(s.URL)
	}
	fmt.Fprintf(out, "wrapped %s in %s (%s): it now runs through mcpscope proxy --name %s, %s\n",
		quote(name), termtext.Line(homeShort(c.env.Home, b.Path)), b.Host, session, termtext.Line(kind))
	fmt.Fprintf(out, "restart or reload the host, then watch it: mcpscope attach %s\n", session)
	fmt.Fprintf(out, "mcpscope unwrap %s puts the file back as it was (backup: %s)\n", termtext.Line(name), homeShort(c.env.Home, b.File()))
	return nil
}

// wrapTarget returns the one entry called name that wrap may rewrite, or
// says why there is none or which to choose.
func (c *configured) wrapTarget(name string, choice wrapChoice) (mcpconfig.Server, error) {
	var matches []mcpconfig.Server
	for _, s := range c.named(name) {
		if s.Format == mcpconfig.Registry || choice.host != "" && string(s.Format) != choice.host {
			continue
		}
		matches = append(matches, s)
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		if len(c.named(name)) > 0 {
			return mcpconfig.Server{}, usagef("no host config file has %s%s (a registry server.json is not a host's config)", quote(name), hostNote(choice.host))
		}
		return mcpconfig.Server{}, c.unknown(name, choice.config)
	}
	var files []string
	for _, s := range matches {
		files = append(files, fmt.Sprintf("%s (%s)", homeShort(c.env.Home, s.Source), s.Format))
	}
	return mcpconfig.Server{}, usagef("%s is in %d config files: %s; choose one with --config FILE or --host HOST",
		quote(name), len(matches), termtext.Line(strings.Join(files, ", ")))
}

func hostNote(host string) string {
	if host == "" {
		return ""
	}
	return " for --host " + host
}

// mcpscopeExecutable is the mcpscope a host should launch: the running
// binary's absolute path, or the mcpscope on PATH when it is the same
// file (a package manager's link survives an upgrade).
var mcpscopeExecutable = func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the mcpscope binary: %w", err)
	}
	if onPath, err := exec.LookPath("mcpscope"); err == nil && filepath.IsAbs(onPath) {
		a, errA := os.Stat(onPath)
		b, errB := os.Stat(exe)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return onPath, nil
		}
	}
	return exe, nil
}
