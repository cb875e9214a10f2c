package ws

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/rawtcp"
)

// A Close while the upgrade waits for an answer gives the upgrade up: the
// TUI's quit while connecting ends at once instead of when the server
// answers, which this one never does.
func TestCloseGivesUpTheUpgrade(t *testing.T) {
	asked := make(chan struct{}, 1)
	srv := rawtcp.Serve(t, func(_ int, c net.Conn) {
		if rawtcp.ReadRequest(c) != nil {
			asked <- struct{}{}
		}
		rawtcp.Hold(c)
	})
	tr, err := New(Config{URL: "ws://" + srv.Addr() + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan error, 1)
	go func() { started <- tr.Start(context.Background(), nil) }()
	select {
	case <-asked:
	case <-time.After(bound):
		t.Fatalf("the upgrade request never came within %s", bound)
	}
	closed := make(chan error, 1)
	go func() { closed <- tr.Close() }()
	for _, ch := range []chan error{started, closed} {
		select {
		case err := <-ch:
			if ch == started && !errors.Is(err, client.ErrClosed) {
				t.Errorf("Start returned %v, want client.ErrClosed", err)
			}
		case <-time.After(bound):
			t.Fatalf("Close did not give the upgrade up within %s", bound)
		}
	}
}
