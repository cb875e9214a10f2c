// Package contentsave is the key that saves an image, audio clip or blob
// of a result to a file, shared by the detail pane and the explorer's
// outcome: it picks the item (the next one each time the key is pressed
// again on the same result), asks for the path with a name taken from the
// content, asks again before replacing a file, and writes it off the UI's
// goroutine.
package contentsave

import (
	"encoding/json"
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/dustin/go-humanize"

	"github.com/mcpscope/mcpscope/internal/app/atomicfile"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Key is the save key.
func Key() key.Binding {
	return key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "save image/audio/blob to a file"))
}

// ErrNothing is why a result offers nothing to save.
var ErrNothing = errors.New("no image, audio or blob content to save here")

// Picker remembers which item the key saved last, so that pressing it
// again on the same result offers the next.
type Picker struct {
	of   string // the result last picked from (its identity: a frame, a call)
	next int
}

// Pick returns the item to offer from result, of, its number from 1 and
// how many result holds; of names the result (pressing the key again on
// the same of moves to the next item).
func (p *Picker) Pick(of string, result json.RawMessage) (media.Item, int, int, error) {
	items := media.Items(result)
	if len(items) == 0 {
		return media.Item{}, 0, 0, ErrNothing
	}
	if of != p.of {
		p.of, p.next = of, 0
	}
	i := p.next % len(items)
	p.next = i + 1
	return items[i], i + 1, len(items), nil
}

// Prompt is what the input line asks: "save image 1 of 2 (W: next) to: ".
func Prompt(it media.Item, i, n int) string {
	if n > 1 {
		return fmt.Sprintf("save %s %d of %d (esc, %s: the next) to: ", it.Kind, i, n, Key().Help().Key)
	}
	return fmt.Sprintf("save %s to: ", it.Kind)
}

// ReplacePrompt asks before a file at path is replaced. When path is a
// symbolic link the file it names is what is replaced, and so what is
// named: "replace link.png → /home/me/real.png? y/n: ".
func ReplacePrompt(path string) string {
	what := termtext.Line(path)
	if target, err := atomicfile.Resolve(path); err == nil && target != path {
		what += " → " + termtext.Line(target)
	}
	return "replace " + what + "? y/n: "
}

// ReplaceHint is what the line shows under ReplacePrompt while nothing
// is typed.
const ReplaceHint = "y replaces it; n or esc keeps it"

// Yes says whether an answer to ReplacePrompt is yes.
func Yes(answer string) bool { return answer == "y" || answer == "Y" || answer == "yes" }

// SavedMsg reports a save.
type SavedMsg struct {
	Path  string
	Bytes int
	Err   error
}

// Report says how the save went, for the status line.
func (m SavedMsg) Report() (string, error) {
	if m.Err != nil {
		return "", fmt.Errorf("saving the content: %w", m.Err)
	}
	return fmt.Sprintf("saved %s to %s", humanize.IBytes(uint64(m.Bytes)), termtext.Line(m.Path)), nil
}

// Write writes it to path off the UI's goroutine, replacing a file there
// only when replace is set.
func Write(it media.Item, path string, replace bool) tea.Cmd {
	return func() tea.Msg {
		n, err := it.Save(path, replace)
		return SavedMsg{Path: path, Bytes: n, Err: err}
	}
}
