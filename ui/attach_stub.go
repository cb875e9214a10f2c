package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// NewAttach is the screen of a live proxied session; next waits for the
// host's next session of the same server.
func NewAttach(src AttachSource, next func(ctx context.Context) (AttachSource, error)) tea.Model {
	return attachStub{src: src}
}

// attachStub shows what it is attached to until a key is pressed.
type attachStub struct{ src AttachSource }

func (a attachStub) Init() tea.Cmd { return nil }

func (a attachStub) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		return a, tea.Quit
	}
	return a, nil
}

func (a attachStub) View() tea.View {
	return tea.NewView(fmt.Sprintf("attached to %s: %d frames", a.src.Header().Proxy, a.src.Store().Len()))
}
