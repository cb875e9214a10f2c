package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// stuckHandler never answers until the session ends.
type stuckHandler struct{}

func (stuckHandler) HandleServerRequest(ctx context.Context, _ string, _ json.RawMessage) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// The status bar counts the server's requests refused as busy once 256
// were in flight, and says nothing of them before.
func TestStatusBarShowsRefusedServerRequests(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 200, 20)
	f, s := screentest.ConnectWith(t, m.cfg.Store, client.Options{ProtocolVersion: mcp.LatestLegacy, Handler: stuckHandler{}})
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	ask := func(i int) {
		req, err := jsonrpc.NewRequest(jsonrpc.IntID(int64(i)), mcp.MethodElicitationCreate, mcp.ElicitRequestParams{Message: "?"})
		if err != nil {
			t.Fatal(err)
		}
		f.Deliver(req)
	}
	for i := range client.MaxServerRequests {
		ask(i)
	}
	if bar := strings.Join(m.statusParts(), " · "); strings.Contains(bar, "refused") {
		t.Fatalf("status bar %q before any refusal", bar)
	}
	ask(-1)
	ask(-2)
	if bar := strings.Join(m.statusParts(), " · "); !strings.Contains(bar, "0 in flight · 2 server requests refused (busy)") {
		t.Fatalf("status bar %q does not count the refusals", bar)
	}
}

// The status bar counts the answers to the server's requests that could
// not be sent, and says nothing of them while there are none.
func TestStatusBarShowsUnsentAnswers(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 200, 20)
	f, s := screentest.ConnectWith(t, m.cfg.Store, client.Options{ProtocolVersion: mcp.LatestLegacy})
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	if bar := strings.Join(m.statusParts(), " · "); strings.Contains(bar, "not sent") {
		t.Fatalf("status bar %q with every answer sent", bar)
	}
	f.SetUnsentAnswers(7)
	if bar := strings.Join(m.statusParts(), " · "); !strings.Contains(bar, "0 in flight · 7 answers not sent") {
		t.Fatalf("status bar %q does not count the unsent answers", bar)
	}
}
