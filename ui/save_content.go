package ui

import (
	"errors"
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/contentsave"
)

// askSaveContent asks where to save the selected frame's image, audio or
// blob (the next of them each time the key is pressed again on the same
// frame), then writes it; a file there is replaced only once confirmed.
func (m *Model) askSaveContent() tea.Cmd {
	f, ok := m.traffic.selected()
	if !ok {
		m.status.setError(errors.New("nothing to save: no frame is selected"))
		return nil
	}
	if f.Msg == nil || f.Msg.Kind() != jsonrpc.KindResult {
		m.status.setError(fmt.Errorf("frame %d is not a result: select the answer that holds the image, audio or blob", f.Seq))
		return nil
	}
	it, i, n, err := m.savePick.Pick(strconv.FormatUint(f.Seq, 10), f.Msg.Result)
	if err != nil {
		m.status.setError(fmt.Errorf("frame %d: %w", f.Seq, err))
		return nil
	}
	return m.askLine(contentsave.Prompt(it, i, n), it.FileName(i), func(path string) tea.Cmd {
		return m.saveContent(it, path)
	})
}

// saveContent writes it to path, first asking whether to replace a file
// there.
func (m *Model) saveContent(it media.Item, path string) tea.Cmd {
	if path == "" {
		return nil
	}
	if !media.Exists(path) {
		return contentsave.Write(it, path, false)
	}
	defer func() { m.input.Placeholder = contentsave.ReplaceHint }()
	return m.askLine(contentsave.ReplacePrompt(path), "", func(answer string) tea.Cmd {
		if !contentsave.Yes(answer) {
			m.status.note("not saved: " + path + " is kept")
			return nil
		}
		return contentsave.Write(it, path, true)
	})
}
