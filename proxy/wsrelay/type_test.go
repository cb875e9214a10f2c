package wsrelay

import (
	"context"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
)

// A message the proxy carries in a binary message's place (a corrupt
// fault's cut body, both ways) stays a binary message; an answer the
// proxy makes itself (an error fault's) is a text message.
func TestRelaySendKeepsTheReplacedMessageType(t *testing.T) {
	sess, local := relayFor(t, Options{Upstream: echoServer(t)})
	if err := sess.SetFaults([]proxy.Fault{
		{Match: proxy.Filter{Method: "corrupt/me"}, Action: proxy.FaultCorrupt, Times: 1},
		{Match: proxy.Filter{Method: "answer/me"}, Action: proxy.FaultError, Error: &jsonrpc.Error{Code: -32000, Message: "no"}}},
	); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, local, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.CloseNow() }()
	if err := c.Write(ctx, websocket.MessageBinary, []byte(`{"jsonrpc":"2.0","method":"corrupt/me","params":{"pad":"xxxxxxxxxxxxxxxx"}}`)); err != nil {
		t.Fatal(err)
	}
	if typ, b, err := c.Read(ctx); err != nil || typ != websocket.MessageBinary {
		t.Fatalf("the corrupted message came back as %v %q %v, want binary", typ, b, err)
	}
	if err := c.Write(ctx, websocket.MessageBinary, []byte(`{"jsonrpc":"2.0","id":7,"method":"answer/me"}`)); err != nil {
		t.Fatal(err)
	}
	if typ, b, err := c.Read(ctx); err != nil || typ != websocket.MessageText {
		t.Fatalf("the proxy's answer came as %v %q %v, want text", typ, b, err)
	}
}
