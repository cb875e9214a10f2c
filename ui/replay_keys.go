package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// ReplayKeys are the keys of a replay's timeline.
type ReplayKeys struct {
	Play, Speed         key.Binding
	StepNext, StepBack  key.Binding
	Forward, Back       key.Binding // ±1 s of recorded time
	FarForward, FarBack key.Binding // ±10 s
	Start, End          key.Binding
}

// DefaultReplayKeys returns the replay's bindings; none is a key of the
// panes.
func DefaultReplayKeys() ReplayKeys {
	return ReplayKeys{
		Play:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play / pause")),
		Speed:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "speed 1× → 10× → at once")),
		StepNext:   key.NewBinding(key.WithKeys("."), key.WithHelp(".", "next frame")),
		StepBack:   key.NewBinding(key.WithKeys(","), key.WithHelp(",", "previous frame")),
		Forward:    key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "+1 s")),
		Back:       key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "−1 s")),
		FarForward: key.NewBinding(key.WithKeys("}"), key.WithHelp("}", "+10 s")),
		FarBack:    key.NewBinding(key.WithKeys("{"), key.WithHelp("{", "−10 s")),
		Start:      key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "to the start")),
		End:        key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "to the end")),
	}
}

// group is the replay's column of the help screen.
func (r ReplayKeys) group() []key.Binding {
	return []key.Binding{r.Play, r.Speed, r.StepNext, r.StepBack, r.Forward, r.Back, r.FarForward, r.FarBack, r.Start, r.End}
}

// liveOnly are the keys that send to a server or act on a live session:
// a replay refuses them, saying why.
func (k KeyMap) liveOnly() []key.Binding {
	return []key.Binding{k.ListTools, k.ReadFile, k.Analyze, k.Tone, k.Explore, k.Compose, k.Roots,
		k.Cancel, k.Reconnect, k.Server}
}

// replayHints ranks the keys of a replay for the hint bar.
func (k KeyMap) replayHints(r ReplayKeys) keyhelp.Map {
	return keyhelp.Map{
		Short: []key.Binding{keyhelp.Relabel(r.Play, "play/pause"), keyhelp.Relabel(r.Speed, "speed"),
			keyhelp.Relabel(r.Start, "start"), keyhelp.Relabel(r.End, "end"),
			keyhelp.Relabel(r.StepNext, "next"), keyhelp.Relabel(r.StepBack, "previous"),
			keyhelp.Relabel(r.Forward, "+1s"), keyhelp.Relabel(r.Back, "−1s"),
			k.NextPane, k.Detail, k.Filter, k.Hex, k.Quit},
		Essential: []key.Binding{k.Quit},
	}
}

// replayHelp is a replay's help screen: its timeline keys, then the keys
// of the panes that work on a recording.
func (k KeyMap) replayHelp(r ReplayKeys, s paneSet) [][]key.Binding {
	panes := []key.Binding{k.NextPane, k.PrevPane}
	for p := range paneCount {
		if s[p] {
			panes = append(panes, k.Panes[p])
		}
	}
	return [][]key.Binding{
		r.group(),
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		panes,
		{k.Detail, k.Hex, k.Back, k.Link, k.Follow, k.Filter},
		{k.PrevItem, k.NextItem, k.Copy, k.Save, k.Wire},
		{k.Help, k.helpInText(), k.Quit},
	}
}
