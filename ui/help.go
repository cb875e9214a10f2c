package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// Notes of the help screen.
const (
	// closeHelp says how to leave the help screen.
	closeHelp = "? or esc closes help"
	// filterHelp explains the filter words.
	filterHelp = "filter words (all must match): a method substring · > sent · < received · #ID · error · finding[:error|warning|note] · " +
		"control | stream | datagram | stderr"
	// helpIsOpen says why a key does nothing while the help is shown.
	helpIsOpen = "help is open: esc closes it"
	// typingHelp says why ? is not help while a text field has the keys.
	typingHelp = "a text field has the keys: ? types a ?, F1 opens this help"
)

// helpKey opens or closes the help screen: F1 anywhere, ? unless a text
// field has the keys (typing); while the help is shown, ?, F1 and esc
// close it, the navigation keys scroll it and any other key but ctrl+c
// does nothing and says so (nothing acts out of sight). It reports
// whether it took msg.
func (m *Model) helpKey(msg tea.KeyPressMsg, typing bool) bool {
	k := m.keys
	switch {
	case m.showHelp && key.Matches(msg, k.Help, k.HelpAnywhere, k.Back):
		m.showHelp = false
	case key.Matches(msg, k.HelpAnywhere), !typing && key.Matches(msg, k.Help):
		m.showHelp, m.helpTop = true, 0
	case m.showHelp:
		page := max(m.height-chromeLines, 1)
		v, ok := nav.Of(msg, k.Keys, page)
		if !ok {
			if msg.String() == "ctrl+c" || key.Matches(msg, m.quitKey()) {
				return false // quitting works as the hint bar says
			}
			m.status.note(helpIsOpen)
			return true
		}
		last := max(len(m.helpLines(m.width))-page, 0)
		m.helpTop = v.Apply(m.helpTop, last+1)
	default:
		return false
	}
	return true
}

// recordingHelp says where the session is recorded and how to replay it,
// a note each.
func recordingHelp(path string) []string {
	return []string{"recording to " + termtext.Line(path), "replay it with " + termtext.Line(recordings.ReplayCommand(path))}
}

// screenKeys are the keys of the open screen.
func (m *Model) screenKeys() keyhelp.Map { return keyhelp.Of(m.overlay.Help()) }

// screenInFront reports whether an open screen has the keys (the panes
// have them once ctrl+o flipped to the wire).
func (m *Model) screenInFront() bool { return m.overlay != nil && !m.wireFront }

// quitKey is how to quit from where the keys are: q on the panes, ctrl+c
// in a screen (where q may be typed).
func (m *Model) quitKey() key.Binding {
	if m.screenInFront() {
		return key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))
	}
	return m.keys.Quit
}

// hintBar draws the line of keys under the body: how to close the help
// while it is shown, else the keys of whatever has them, ranked, with the
// key that opens the help first (F1 while a text field has the keys, ?
// otherwise). A screen's keys end with the one that shows the wire; the
// panes' keys in front of a screen start with the way back to it, which
// is never cut.
func (m *Model) hintBar(w int) string {
	k := m.keysHere()
	switch {
	case m.showHelp:
		closing := key.NewBinding(key.WithKeys("?", "esc"), key.WithHelp("?/esc", "close help"))
		scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓ pgup/pgdn", "scroll"))
		quit := m.quitKey()
		return m.styles.HintBar(closing, keyhelp.Map{Short: []key.Binding{scroll, quit}, Essential: []key.Binding{quit}}, w)
	case m.screenInFront():
		sk := m.screenKeys()
		wire := keyhelp.Relabel(k.Wire, "wire")
		sk.Short = append(slices.Clone(sk.Short), wire)
		if m.layout.screen.w < m.width {
			sk.Short[len(sk.Short)-1] = keyhelp.Relabel(k.Wire, "keys to traffic")
		} else { // the wire is not on screen: the flip to it is the way to see it
			sk.Essential = append(slices.Clone(sk.Essential), wire)
		}
		open := k.Help
		if sk.Typing {
			open = k.HelpAnywhere
		}
		return m.styles.HintBar(open, sk, w)
	case m.overlay != nil:
		name, _, _ := strings.Cut(look.OneLine(m.overlay.Title()), " · ")
		back := keyhelp.Relabel(k.Wire, "back to "+name)
		h := k.hints()
		h.Short = append([]key.Binding{back}, h.Short...)
		h.Essential = append(h.Essential, back)
		return m.styles.HintBar(k.Help, h, w)
	}
	if m.replay != nil {
		return m.styles.HintBar(k.Help, k.replayHints(m.replay.keys), w)
	}
	if m.attach != nil {
		return m.styles.HintBar(k.Help, k.attachHints(m.attach.keys), w)
	}
	return m.styles.HintBar(k.Help, k.hints(), w)
}

// fullHelp renders the help screen in w columns from the line the user
// scrolled to.
func (m *Model) fullHelp(w int) string {
	lines := m.helpLines(w)
	return strings.Join(lines[min(m.helpTop, len(lines)-1):], "\n")
}

// helpLines are the lines of the help screen in w columns: what it is and
// how to close it, then the keys of the open screen (and the two that
// work everywhere) or of the panes, in columns, then notes.
func (m *Model) helpLines(w int) []string {
	k := m.keysHere()
	title, groups, notes := "Keys of mcpscope", k.fullHelp(m.panes), []string{filterHelp}
	if m.replay != nil {
		title, groups = "Keys of mcpscope replay", k.replayHelp(m.replay.keys, m.panes)
	}
	if m.attach != nil {
		title, groups = "Keys of mcpscope attach", k.attachHelp(m.attach.keys, m.panes)
		notes = append(notes, pauseHelp)
	}
	if m.cfg.Recording != "" {
		notes = append(notes, recordingHelp(m.cfg.Recording)...)
	}
	if m.screenInFront() {
		sk := m.screenKeys()
		title = "Keys of " + m.overlay.Title()
		groups = append(slices.Clone(sk.FullHelp()), []key.Binding{k.Help, k.helpInText(), k.Wire, m.quitKey()})
		notes = nil
		if sk.Typing {
			notes = []string{typingHelp}
		}
	}
	muted := m.styles.Ink.Muted
	lines := []string{
		m.styles.TitleFocused.Render(ansi.Truncate(title, w, "…")),
		muted.Paint(closeHelp),
		"",
		m.styles.HelpColumns(groups, w),
	}
	for _, n := range notes {
		lines = append(lines, "", muted.Paint(ansi.Hardwrap(n, w, true)))
	}
	return strings.Split(strings.Join(lines, "\n"), "\n")
}
