package webtransport

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// TestBrokenAnswerFailsTheCallAtOnce: a control frame answering tools/call
// with a broken envelope, in either encoding, fails the call at once as a
// protocol violation, long before the session's timeout, and the frame is
// kept with its error.
func TestBrokenAnswerFailsTheCallAtOnce(t *testing.T) {
	for _, c := range []struct{ encoding, body, why string }{
		{"json", `{"jsonrpc":"2.0","id":ID,"result":{},"error":{"code":1,"message":"x"}}`, `it has both "result" and "error"`},
		{"json", `{"jsonrpc":"2.0","id":ID,"id":ID,"result":{}}`, `it has "id" twice`},
		{"cbor", `{"jsonrpc":"1.0","id":ID,"result":{}}`, `"jsonrpc" is "1.0", want "2.0"`},
		{"cbor", `{"jsonrpc":"2.0","id":ID,"error":null}`, `"error" is null`},
	} {
		t.Run(c.encoding+" "+c.why, func(t *testing.T) {
			ts := wttest.NewServer(t, wttest.Serve(c.encoding, func(p *wttest.Peer, m *jsonrpc.Message) {
				if m.Method != mcp.MethodToolsCall {
					echoTool(p, m)
					return
				}
				body := []byte(strings.ReplaceAll(c.body, "ID", m.ID.String()))
				if c.encoding == "cbor" {
					var err error
					if body, err = jsonrpc.JSONToCBOR(body); err != nil {
						t.Error(err)
					}
				}
				p.WriteRaw(flow.AppendControlFrame(nil, body))
			}))
			// The session's timeout (guard.Run) outlasts the test's own wait
			// (guard.Hang), so an answer that failed only by timing out
			// fails the test as a wait, not as a timeout error.
			s, _, store := connect(t, ts, nil, client.Options{Timeout: guard.Run})
			ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
			defer cancel()
			var id jsonrpc.ID
			_, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "x"}, client.WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
			if ctx.Err() != nil {
				t.Fatalf("waited %s for the broken answer to fail tools/call; it was still waiting: %v", guard.Hang, err)
			}
			var pe *client.ProtocolError
			want := "protocol violation: the answer to tools/call (id " + id.String() + ") is unusable: " + c.why
			if !errors.As(err, &pe) || err.Error() != want {
				t.Fatalf("err %v\nwant %s", err, want)
			}
			in := controlFrames(store, capture.In)
			var env *jsonrpc.EnvelopeError
			if last := in[len(in)-1]; !errors.As(last.Err, &env) || env.Reason != c.why {
				t.Fatalf("last frame from the server %+v, want it kept with the violation", last)
			}
			if _, err := s.Call(testCtx(t), mcp.MethodPing, nil); err != nil {
				t.Fatalf("the session did not survive the broken answer: %v", err)
			}
		})
	}
}
