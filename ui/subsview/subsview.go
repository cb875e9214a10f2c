// Package subsview is the Subscriptions view: the resources subscribed to (resources/subscribe), each with its update count and last update, notifications/resources/updated linked, a re-read in one key.
package subsview

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Book is what the UI's index learns for the view from the capture, one
// frame at a time, whether the view is open or not. Its memory is
// bounded.
type Book struct{}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{} }

// Note reads one captured frame, in capture order.
func (b *Book) Note(f *capture.Frame) {}

// View is the screen of the book.
type View struct {
	h     screen.Host
	b     *Book
	close key.Binding
}

// Open returns the view of b.
func Open(h screen.Host, b *Book) *View {
	return &View{h: h, b: b, close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))}
}

// Title is the view's title line.
func (v *View) Title() string { return "Subscriptions" }

// SetSize gives the view its body size.
func (v *View) SetSize(w, h int) {}

// Update handles a key: esc closes the view.
func (v *View) Update(msg tea.Msg) (tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, v.close) {
		return nil, true
	}
	return nil, false
}

// Render draws the body.
func (v *View) Render(w, h int) string { return "" }

// Help lists the view's keys.
func (v *View) Help() help.KeyMap {
	return keyhelp.Map{Short: []key.Binding{v.close}, Essential: []key.Binding{v.close}}
}
