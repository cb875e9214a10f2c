package compose

import (
	"context"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// listening is the live state of a subscriptions/listen sent from the
// composer: it runs until the server ends it or the user cancels it, and
// every break is re-issued under a new id. Written by the engine's
// goroutines, read by the renderer.
type listening struct {
	acked    atomic.Bool
	notes    atomic.Int64
	reissues atomic.Int64
	broken   atomic.Pointer[string] // why the latest break happened
}

// event records one event of the subscription; p follows the current id,
// so that cancel reaches the stream in flight.
func (l *listening) event(p *pendingCall, ev client.ListenEvent) {
	switch ev.Kind {
	case client.ListenOpened:
		p.setID(ev.Round, ev.ID)
		if ev.Round > 1 {
			l.reissues.Add(1)
			l.acked.Store(false)
		}
	case client.ListenAcknowledged:
		l.acked.Store(true)
	case client.ListenNotified:
		l.notes.Add(1)
	case client.ListenBroken:
		why := ev.Err.Error()
		l.broken.Store(&why)
	}
}

// status is one line saying where the subscription stands.
func (l *listening) status() string {
	state := "waiting for the acknowledgement"
	if l.acked.Load() {
		state = "acknowledged"
	}
	s := state + " · " + plural.Count(l.notes.Load(), "notification", "notifications")
	if n := l.reissues.Load(); n > 0 {
		s += " · re-issued " + plural.Count(n, "time", "times")
		if why := l.broken.Load(); why != nil {
			s += " after: " + *why
		}
	}
	return s
}

// listenCmd runs the subscription until it ends: no max time, since the
// user watches it and cancels it with the cancel key.
func listenCmd(ctx context.Context, s *client.Session, gen int, params any, p *pendingCall) tea.Cmd {
	l := &listening{}
	p.listen = l
	return func() tea.Msg {
		res, err := s.Listen(ctx, params, func(ev client.ListenEvent) { l.event(p, ev) }, client.WithMaxTime(0))
		return composeAnswerMsg{gen: gen, result: res, err: err}
	}
}

// isListen reports whether method opens a subscription.
func isListen(method string) bool { return method == mcp.MethodSubscriptionsListen }
