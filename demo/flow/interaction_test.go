package flow

import (
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// flowPeer is wizardtest's raw client over the control stream.
type flowPeer struct{ c *rawClient }

func (p flowPeer) Send(m *jsonrpc.Message) { p.c.send(m) }
func (p flowPeer) Next() *jsonrpc.Message  { return p.c.decode(p.c.next()) }

// Over MCP-Flow, in CBOR, the server's interaction.prompt and
// interaction.complete are control frames like any other and the client's
// answers to them reach the server: book_trip (with a refused date) and
// its stateless twin walk to the end, a cancelled session refuses further
// answers, and elicit_all's form comes back as the tool's result.
func TestFlowWizardRawClient(t *testing.T) {
	raw := connect(t, startServer(t, Config{}))
	raw.initialize([]string{"cbor"})
	if raw.enc != proto.EncCBOR {
		t.Fatal("CBOR was not negotiated")
	}
	c := wizardtest.New(t, flowPeer{raw})
	c.WalkBookTrip("book_trip")
	c.CancelBookTrip()
	c.WalkBookTrip("book_trip_stateless")
	if got := c.ElicitAll(mcp.ElicitActionAccept, wizardtest.ElicitAllContent()); got["valid"] != true {
		t.Errorf("elicit_all over MCP-Flow: %v", got)
	}
}
