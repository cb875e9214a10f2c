package stdio

import (
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// pipePeer is a raw client of Serve: one JSON line per message.
type pipePeer struct {
	t *testing.T
	p *pipeServer
}

func (pp pipePeer) Send(m *jsonrpc.Message) {
	b, err := m.EncodeJSON()
	if err != nil {
		pp.t.Fatal(err)
	}
	pp.p.write(pp.t, string(b))
}

func (pp pipePeer) Next() *jsonrpc.Message { return pp.p.next(pp.t) }

// rawClient starts Serve on pipes and drives it by hand.
func rawClient(t *testing.T) *wizardtest.Client {
	t.Helper()
	p := startPipeLimit(t, DefaultMaxLineSize)
	c := wizardtest.New(t, pipePeer{t: t, p: p})
	if m := c.Call(mcp.MethodInitialize, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{"elicitation": map[string]any{}},
		"clientInfo": map[string]any{"name": "raw", "version": "1"}}); m.Error != nil {
		t.Fatalf("initialize: %+v", m.Error)
	}
	return c
}

// Over stdio the server's interaction.prompt and interaction.complete are
// lines like any other, and the client's answers to them reach the
// server: book_trip (with a refused date) and its stateless twin walk to
// the end, and a cancelled session refuses further answers.
func TestStdioWizardRawClient(t *testing.T) {
	c := rawClient(t)
	c.WalkBookTrip("book_trip")
	c.CancelBookTrip()
	c.WalkBookTrip("book_trip_stateless")
}

// elicit_all's elicitation/create goes out as a line and the raw client's
// answer comes back as the tool's result.
func TestStdioElicitAllRawClient(t *testing.T) {
	c := rawClient(t)
	got := c.ElicitAll(mcp.ElicitActionAccept, wizardtest.ElicitAllContent())
	if got["valid"] != true {
		t.Errorf("elicit_all over stdio: %v", got)
	}
}
