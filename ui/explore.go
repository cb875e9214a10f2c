package ui

import tea "charm.land/bubbletea/v2"

// openExplorer opens the explorer of tools, resources, templates and prompts.
func (m *Model) openExplorer() tea.Cmd { return nil }
