package ui

import tea "charm.land/bubbletea/v2"

// openComposer opens the raw request composer.
func (m *Model) openComposer() tea.Cmd { return nil }
