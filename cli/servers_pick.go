package cli

import (
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/ui"
)

// serverRow lays out a server's line in the picker: name, transport,
// source, command or URL.
const serverRow = "%-24s %-9s %-40s %s"

// runServerPicker opens the picker of configured servers for `mcpscope`
// without a TARGET and connects the TUI to the one chosen. Without any
// configured server it says how to start, in three lines (startHint).
func runServerPicker(cmd *cobra.Command, f *runFlags) error {
	c, err := loadConfigured(f.config)
	if err != nil {
		return err
	}
	if len(c.servers) == 0 {
		if f.config != "" {
			return usagef("--config %s holds no server mcpscope can use", quote(f.config))
		}
		return startHint(cmd.ErrOrStderr())
	}
	items := make([]ui.PickItem, len(c.servers))
	for i, s := range c.servers {
		l := listed(s)
		source := homeShort(c.env.Home, s.Source)
		items[i] = ui.PickItem{
			ID:    strconv.Itoa(i),
			Row:   fmt.Sprintf(serverRow, s.Name, s.Transport, source, l.target),
			Match: s.Name + " " + source,
		}
	}
	p := ui.NewListPicker("MCP servers in the config files", fmt.Sprintf(serverRow, "name", "transport", "source", "command or URL"), "server", items)
	var root tea.Model = p
	if wrapTUIModel != nil {
		root = wrapTUIModel(p)
	}
	if err := runProgram(cmd, root); err != nil {
		return err
	}
	i, err := strconv.Atoi(p.Chosen())
	if err != nil || i < 0 || i >= len(c.servers) {
		return nil // the user left
	}
	t, err := f.serverOf(cmd, c, c.servers[i])
	if err != nil {
		return err
	}
	return runTUI(cmd, f, t, nil)
}
