package client

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Done stays open while the session lives, and closes on Close and on
// the connection's loss.
func TestSessionDone(t *testing.T) {
	s, _ := connect(t, serve(false, func(*fakeServer, *jsonrpc.Message) {}), Options{})
	select {
	case <-s.Done():
		t.Fatal("Done is closed on a live session")
	default:
	}
	_ = s.Close()
	select {
	case <-s.Done():
	default:
		t.Fatal("Close left Done open")
	}

	lost, _ := connect(t, func(srv *fakeServer) {
		if srv.handshake(false, mcp.LatestLegacy) {
			srv.kill()
		}
	}, Options{})
	select {
	case <-lost.Done():
	case <-testCtx(t).Done():
		t.Fatal("the lost connection left Done open")
	}
}
