package cli

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/proxy/live"
	"github.com/mcpscope/mcpscope/ui"
)

// liveRowFormat lays out one live session: name, pid, started,
// transport, target and recording.
const liveRowFormat = "%-20s %7s  %-19s  %-9s  %s  %s"

// liveRow is one live session as attach --list and the picker show it.
func liveRow(e live.Entry) string {
	rec := e.Recording
	if rec == "" {
		rec = "-"
	}
	return fmt.Sprintf(liveRowFormat, e.Name, fmt.Sprint(e.PID), e.Started.Local().Format("2006-01-02 15:04:05"),
		safeLine(e.Transport), safeLine(e.Target), safeLine(rec))
}

// liveHeader is the column header of liveRow.
var liveHeader = fmt.Sprintf(liveRowFormat, "name", "pid", "started", "transport", "target", "recording")

// listLive prints the live sessions (of name, when given), newest first,
// one a line under a header; none prints nothing.
func listLive(cmd *cobra.Command, name string) error {
	var all []live.Entry
	var err error
	if name != "" {
		all, err = live.Named(name)
	} else {
		all, err = live.List()
	}
	if err != nil {
		return withExit(ExitConnection, err)
	}
	if len(all) == 0 {
		return nil
	}
	out := cmd.OutOrStdout()
	fmt.Fprintln(out, liveHeader)
	for _, e := range all {
		fmt.Fprintln(out, liveRow(e))
	}
	return nil
}

// pickLive lets the user pick one of several live sessions, newest
// first; nil when they left.
func pickLive(cmd *cobra.Command, all []live.Entry) (*live.Entry, error) {
	items := make([]ui.PickItem, len(all))
	for i, e := range all {
		items[i] = ui.PickItem{ID: e.Socket, Row: liveRow(e), Match: e.Name + " " + e.Target}
	}
	p := ui.NewListPicker("Live proxied sessions", liveHeader, "session", items)
	var root tea.Model = p
	if wrapTUIModel != nil {
		root = wrapTUIModel(p)
	}
	if err := runProgram(cmd, root); err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].Socket == p.Chosen() {
			return &all[i], nil
		}
	}
	return nil, nil
}
