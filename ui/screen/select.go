package screen

import tea "charm.land/bubbletea/v2"

// FrameSelector is a Host that can show one captured frame: the root
// selects it in the traffic, opens the hex pane on it with the bytes
// [off, off+n) of its Raw selected (n 0: none), and hands the keys to
// the panes, the screen staying open behind them (ctrl+o returns).
type FrameSelector interface {
	SelectFrame(seq uint64, off, n int) tea.Cmd
}

// SelectFrame asks h to show the frame seq and its bytes [off, off+n),
// and reports false when h cannot.
func SelectFrame(h Host, seq uint64, off, n int) (tea.Cmd, bool) {
	s, ok := h.(FrameSelector)
	if !ok {
		return nil, false
	}
	return s.SelectFrame(seq, off, n), true
}
