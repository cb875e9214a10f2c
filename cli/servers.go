package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// newServersCommand builds `mcpscope servers`.
func newServersCommand() *cobra.Command {
	var configFile string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "servers",
		Short: "List every MCP server found in the user's config files, with its source",
		Long: "List the MCP servers configured for Claude Desktop, Claude Code (~/.claude.json, .mcp.json),\n" +
			"Cursor (~/.cursor/mcp.json, .cursor/mcp.json), VS Code (the user's and .vscode/mcp.json),\n" +
			"Windsurf (~/.codeium/windsurf/mcp_config.json), the Inspector (./mcp.json) and a registry\n" +
			"./server.json: name, transport, source file, command or URL, environment and headers.\n" +
			"Values whose names say they are secrets show only their length. Each NAME is a TARGET:\n" +
			"mcpscope tools NAME, mcpscope NAME. A file that does not parse is reported as\n" +
			"FILE:LINE:COLUMN on stderr and the others are still listed. An entry mcpscope wrap routed\n" +
			"through mcpscope proxy is listed with the server it runs and a note \"wrapped\"; connecting\n" +
			"to it by NAME reaches that server directly, not through the proxy.",
		Example: "  mcpscope servers\n  mcpscope servers --config .vscode/mcp.json\n  mcpscope tools github",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := loadConfigured(configFile)
			if err != nil {
				return err
			}
			io := streamsOf(cmd)
			for _, e := range c.errs {
				io.diag.Println("warning: " + homeShort(c.env.Home, e.Error()))
			}
			if configFile != "" && len(c.servers) == 0 && len(c.errs) > 0 {
				return usagef("--config %s: no server could be read", quote(configFile))
			}
			if asJSON {
				return writeServersJSON(io.out, c, io.pretty)
			}
			return writeServers(io.out, c)
		},
	}
	cmd.Flags().StringVar(&configFile, "config", "", "list only the servers of this config `FILE`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the servers as one JSON array")
	return cmd
}

// homeShort writes the home folder in s as ~.
func homeShort(home, s string) string {
	if home == "" {
		return s
	}
	return strings.ReplaceAll(s, home+string(filepath.Separator), "~"+string(filepath.Separator))
}

// writeServers prints one block per server: its name, transport, source
// and command or URL on the first line, then its cwd, env file, environment
// and headers, secrets redacted. Every value passes through termtext.
func writeServers(w io.Writer, c *configured) error {
	if len(c.servers) == 0 {
		_, err := fmt.Fprintln(w, "no MCP servers found in the config files (mcpscope servers --help lists where it looks)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTRANSPORT\tSOURCE\tCOMMAND OR URL")
	for _, s := range c.servers {
		l := listed(s)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", termtext.Line(s.Name), s.Transport, termtext.Line(homeShort(c.env.Home, s.Source)), termtext.Line(l.target))
		for _, d := range l.details {
			fmt.Fprintf(tw, "\t\t\t  %s\n", termtext.Line(d))
		}
	}
	return tw.Flush()
}

// listing is what is shown of one server, secrets redacted.
type listing struct {
	target  string
	details []string
}

// listed renders s for the listing.
func listed(s mcpconfig.Server) listing {
	s = redactServer(s)
	var wrapped []string
	if s.Wrapped {
		wrapped = []string{wrappedNote(s)}
	}
	if s.Transport != "stdio" {
		l := listing{target: s.URL, details: wrapped}
		for _, h := range s.Headers {
			l.details = append(l.details, "header "+h.Name+": "+h.Value)
		}
		return l
	}
	l := listing{target: strings.Join(append([]string{s.Command}, s.Args...), " "), details: wrapped}
	if s.Cwd != "" {
		l.details = append(l.details, "cwd "+s.Cwd)
	}
	if s.EnvFile != "" {
		l.details = append(l.details, "envFile "+s.EnvFile)
	}
	for _, p := range s.Env {
		l.details = append(l.details, "env "+p.Name+"="+p.Value)
	}
	return l
}

// wrappedNote says that a wrapped entry's host runs it through the proxy,
// and how to watch it; the listing shows the server the proxy runs.
func wrappedNote(s mcpconfig.Server) string {
	if s.ProxyName == "" {
		return "wrapped: runs through mcpscope proxy; mcpscope attach"
	}
	return "wrapped: runs through mcpscope proxy --name " + s.ProxyName + "; mcpscope attach " + s.ProxyName
}

// serverJSON is one server in `mcpscope servers --json`.
type serverJSON struct {
	Name      string            `json:"name"`
	Source    string            `json:"source"`
	Format    string            `json:"format"`
	Transport string            `json:"transport"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	EnvFile   string            `json:"envFile,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	// Wrapped: the host runs it through mcpscope proxy, as the session
	// Proxy; the command or URL above is the server the proxy runs.
	Wrapped bool   `json:"wrapped,omitempty"`
	Proxy   string `json:"proxy,omitempty"`
}

// writeServersJSON prints the servers as a JSON array, secrets redacted.
func writeServersJSON(w io.Writer, c *configured, pretty bool) error {
	out := make([]serverJSON, 0, len(c.servers))
	for _, s := range c.servers {
		s = redactServer(s)
		j := serverJSON{Name: s.Name, Source: s.Source, Format: string(s.Format), Transport: s.Transport,
			Command: s.Command, EnvFile: s.EnvFile, Cwd: s.Cwd, Env: pairMap(s.Env), Headers: pairMap(s.Headers),
			Wrapped: s.Wrapped, Proxy: s.ProxyName}
		if s.Transport == "stdio" {
			j.Args = s.Args
		} else {
			j.URL = s.URL
		}
		out = append(out, j)
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return writeJSON(w, raw, pretty)
}

// pairMap puts pairs into a map (nil when empty).
func pairMap(ps []mcpconfig.Pair) map[string]string {
	if len(ps) == 0 {
		return nil
	}
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Name] = p.Value
	}
	return m
}
