package ui

import (
	"errors"
	"net"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/rawtcp"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// Quitting while the WebSocket upgrade waits for an answer that never
// comes ends the program: the close gives the upgrade up instead of
// staying on "closing the session…" until a limit runs out.
func TestQuitWhileConnectingEnds(t *testing.T) {
	asked := make(chan struct{}, 1)
	srv := rawtcp.Serve(t, func(_ int, c net.Conn) {
		if rawtcp.ReadRequest(c) != nil {
			asked <- struct{}{}
		}
		rawtcp.Hold(c)
	})
	dial := func(sink capture.Sink) (Link, error) {
		tr, err := ws.New(ws.Config{URL: "ws://" + srv.Addr() + "/mcp", Sink: sink})
		if err != nil {
			return Link{}, err
		}
		// Limits past the test's own waits (guard.Hang each): only
		// the quit can end the wait before the test gives up.
		return Link{Transport: tr, Session: client.New(tr, client.Options{Timeout: guard.Run, HardTimeout: guard.Run})}, nil
	}
	m := New(Config{Store: capture.NewStore(capture.Config{}), Target: "ws://" + srv.Addr() + "/mcp", Dial: dial})
	t.Cleanup(func() { _ = m.Close() })
	quit := false
	var connectErr error
	update := func(msg tea.Msg) tea.Cmd {
		switch msg := msg.(type) {
		case tea.QuitMsg:
			quit = true
			return nil
		case connectedMsg:
			connectErr = msg.err
		}
		_, cmd := m.Update(msg)
		return cmd
	}
	r := screentest.NewRunner(t, update, func() string { return m.View().Content })
	r.Send(tea.WindowSizeMsg{Width: 120, Height: 30})
	r.Run(m.Init())
	select {
	case <-asked:
	case <-time.After(guard.Hang): // a hang guard only
		t.Fatalf("the WebSocket upgrade request never came within %s; the screen:\n%s", guard.Hang, m.View().Content)
	}
	r.Send(keytest.Press("q"))
	r.Until("the program's end", func() bool { return quit })
	r.Until("the connect's end", func() bool { return connectErr != nil })
	// The connect ended because of the quit, not because a limit ran out.
	if !errors.Is(connectErr, client.ErrClosed) {
		t.Errorf("the connect ended with %v, want it given up (client.ErrClosed)", connectErr)
	}
}
