package subsview

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// ToggledMsg says that a subscription was made or ended; the screen that
// asked shows Text in the status line. A failure comes as a
// screen.ErrorMsg, which the root shows whatever screen is open.
type ToggledMsg struct {
	URI        string
	Subscribed bool
	How        string // the request that carries it: resources/subscribe, or subscriptions/listen and its id
}

// Text is the status line's note.
func (m ToggledMsg) Text() string {
	if !m.Subscribed {
		return "unsubscribed from " + termtext.OneLine(m.URI)
	}
	return fmt.Sprintf("subscribed to %s (%s)", termtext.OneLine(m.URI), m.How)
}

// Subscribed reports whether the live session holds a subscription to uri.
func Subscribed(h screen.Host, uri string) bool {
	s, err := h.Session()
	return err == nil && s.ResourceSubscription(uri) != nil
}

// Toggle subscribes to uri on the live session, or unsubscribes when it
// is subscribed: the era's way (client.Session.SubscribeResource). The
// subscription lives as long as the UI's context, past the screen.
func Toggle(h screen.Host, uri string) tea.Cmd {
	s, err := h.Session()
	if err != nil {
		return errorCmd(fmt.Errorf("cannot subscribe to %s: %w", termtext.OneLine(uri), err))
	}
	ctx := h.Context()
	if sub := s.ResourceSubscription(uri); sub != nil {
		return func() tea.Msg {
			if err := sub.Unsubscribe(ctx); err != nil {
				return screen.ErrorMsg{Err: fmt.Errorf("unsubscribing from %s: %w", termtext.OneLine(uri), err)}
			}
			return ToggledMsg{URI: uri}
		}
	}
	return func() tea.Msg { return subscribe(ctx, s, uri) }
}

// subscribe makes the subscription and says how it went.
func subscribe(ctx context.Context, s *client.Session, uri string) tea.Msg {
	sub, err := s.SubscribeResource(ctx, uri, nil)
	if err != nil {
		return screen.ErrorMsg{Err: fmt.Errorf("cannot subscribe to %s: %w", termtext.OneLine(uri), err)}
	}
	how := ViaSubscribe
	if id, ok := sub.ListenID(); ok {
		how = fmt.Sprintf("%s #%s", ViaListen, id)
	}
	return ToggledMsg{URI: uri, Subscribed: true, How: how}
}

// errorCmd reports err in the status line.
func errorCmd(err error) tea.Cmd {
	return func() tea.Msg { return screen.ErrorMsg{Err: err} }
}
