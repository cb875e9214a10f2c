package demows

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// An MCP session at /mcp: the subprotocol mcp is chosen, the handshake,
// tools/list and a tool call are answered one message per text message.
func TestMCPSession(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathMCP, "mcp")
	if got := c.c.Subprotocol(); got != "mcp" {
		t.Errorf("subprotocol %q, want mcp", got)
	}
	c.text(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.readText(`"id":1,"result":{"protocolVersion":"2025-06-18"`)
	c.text(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.text(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if got := c.readText(`"id":2`); !strings.Contains(got, `"name":"echo"`) || strings.Contains(got, ToolStreamsOut) {
		t.Errorf("tools/list: %s", got)
	}
	c.text(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi there"}}}`)
	if got := c.readText(`"id":3`); !strings.Contains(got, "hi there") {
		t.Errorf("echo: %s", got)
	}
	c.text(`[{"jsonrpc":"2.0","id":4,"method":"ping"}]`)
	c.readText(`batches are not supported`)
	c.send(websocket.MessageBinary, []byte{1, 2})
	c.readText(`binary messages carry nothing`)
}

// The server's own requests (elicitation/create) go to the client and its
// answer, sent back on the connection, completes the call.
func TestMCPSessionServerRequest(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathMCP, "mcp")
	c.text(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	c.readText(`"id":1`)
	c.text(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.text(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"elicit_all","arguments":{}}}`)
	for i := 0; ; i++ {
		got := c.readText(`"jsonrpc"`)
		if strings.Contains(got, `"id":2`) {
			if !strings.Contains(got, `"result"`) {
				t.Fatalf("elicit_all: %s", got)
			}
			return
		}
		if !strings.Contains(got, `"method":"elicitation/create"`) || i > 20 {
			t.Fatalf("want elicitation/create, got %s", got)
		}
		id := got[strings.Index(got, `"id":`)+5:]
		id = id[:strings.IndexAny(id, ",}")]
		c.text(`{"jsonrpc":"2.0","id":` + id + `,"result":{"action":"decline"}}`)
	}
}

// Seed 004 at /tools: a ping first, answers are JSON-RPC envelopes echoing
// the frame's id, an unknown tool and a frame without an id are errors,
// and pings keep coming.
func TestToolFrames(t *testing.T) {
	s := startServer(t, Options{PingInterval: 20 * time.Millisecond})
	c := s.dial(t, PathTools)
	if c.c.Subprotocol() != "" {
		t.Errorf("tools-ws chose subprotocol %q", c.c.Subprotocol())
	}
	if _, b := c.read(); string(b) != `{"type":"ping"}` {
		t.Fatalf("first frame %s, want a ping", b)
	}
	c.text(`{"id":7,"name":"echo","arguments":{"message":"seven"}}`)
	if got := c.readText(`"id":7`); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"seven"`) {
		t.Errorf("answer %s", got)
	}
	c.text(`{"id":8,"name":"no_such_tool"}`)
	if got := c.readText(`"id":8`); !strings.Contains(got, `"error":{"code":-32602,"message":"unknown tool \"no_such_tool\"`) {
		t.Errorf("unknown tool: %s", got)
	}
	c.text(`{"name":"echo"}`)
	if got := c.readText(`"id":null`); !strings.Contains(got, "needs a numeric id") {
		t.Errorf("no id: %s", got)
	}
	c.text(`{"id":9}`)
	c.readText(`"id":9,"error"`)
	c.text(`{"type":"pong"}`) // ignored
	c.text(`{"id":10,"name":"echo","arguments":{"message":"ten"}}`)
	c.readText(`"id":10,"result"`)
	pings := 0
	for deadline := time.Now().Add(bound); pings < 2 && time.Now().Before(deadline); {
		if _, b := c.read(); string(b) == `{"type":"ping"}` {
			pings++
		}
	}
	if pings < 2 {
		t.Errorf("no pings kept coming")
	}
}

// The first ping comes before any answer, however soon a client sends
// its first frame (one that reads an answer and leaves would otherwise
// never see it).
func TestToolFramesPingFirst(t *testing.T) {
	s := startServer(t, Options{})
	for range 20 {
		c := s.dial(t, PathTools)
		c.text(`{"id":1,"name":"echo","arguments":{"message":"at once"}}`)
		if _, b := c.read(); string(b) != `{"type":"ping"}` {
			t.Fatalf("first frame %s, want a ping", b)
		}
		_ = c.c.CloseNow()
	}
}

// A tools-ws call that asks the client something fails: seed 004 has no
// room for server requests.
func TestToolFramesNoAsking(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathTools)
	c.text(`{"id":1,"name":"elicit_all","arguments":{}}`)
	if got := c.readText(`"id":1`); !strings.Contains(got, `"error"`) && !strings.Contains(got, `"isError":true`) {
		t.Errorf("elicit_all over tools-ws: %s", got)
	}
}

// Another path is 404; Close ends the connections.
func TestHandlerPathsAndClose(t *testing.T) {
	s := startServer(t, Options{})
	rsp, err := http.Get("http" + strings.TrimPrefix(s.base, "ws") + "/nope")
	if err != nil {
		t.Fatal(err)
	}
	rsp.Body.Close()
	if rsp.StatusCode != http.StatusNotFound {
		t.Errorf("status %d", rsp.StatusCode)
	}
	c := s.dial(t, PathGateway, "mcp")
	s.h.Close()
	if _, _, err := c.readErr(); err == nil {
		t.Error("the connection outlived Close")
	}
}

// close_1011 closes the connection with 1011, the call unanswered;
// oversized_message sends one text message of the size asked.
func TestMisbehaveConnectionModes(t *testing.T) {
	s := startServer(t, Options{})
	for _, path := range []string{PathMCP, PathTools, PathGateway} {
		c := s.dial(t, path, "mcp")
		c.text(`{"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"name":"misbehave","arguments":{"mode":"oversized_message","size":3000000}},"name":"misbehave","arguments":{"mode":"oversized_message","size":3000000}}`)
		for {
			_, b := c.read()
			if string(b) == string(pingFrame) {
				continue
			}
			if len(b) != 3000000 || !strings.HasPrefix(string(b), `{"jsonrpc":"2.0","method":"notifications/message"`) {
				t.Errorf("%s: oversized message of %d bytes: %.80s", path, len(b), b)
			}
			break
		}
		c.readText(`sent one text message of 3000000 bytes`)
		c.text(`{"id":2,"jsonrpc":"2.0","method":"tools/call","params":{"name":"misbehave","arguments":{"mode":"close_1011"}},"name":"misbehave","arguments":{"mode":"close_1011"}}`)
		var err error
		for err == nil {
			_, _, err = c.readErr()
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusInternalError {
			t.Errorf("%s: close_1011 ended with %v", path, err)
		}
	}
}

// The gateway's stream modes are refused on the other paths, naming the
// gateway.
func TestMisbehaveStreamModesNeedTheGateway(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathMCP, "mcp")
	c.text(`{"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"name":"misbehave","arguments":{"mode":"index_gap"}}}`)
	if got := c.readText(`"id":1`); !strings.Contains(got, "needs gateway streams (--transport gateway)") {
		t.Errorf("index_gap on /mcp: %s", got)
	}
}

// An Origin not on Options.Origins is refused with 403, as on HTTP; one
// on it, and none, are upgraded.
func TestOriginCheck(t *testing.T) {
	s := startServer(t, Options{Origins: []string{"https://good.example"}})
	dial := func(origin string) (*http.Response, error) {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		defer cancel()
		c, rsp, err := websocket.Dial(ctx, s.base+PathMCP, &websocket.DialOptions{HTTPHeader: h})
		if err == nil {
			_ = c.CloseNow()
		}
		return rsp, err
	}
	if rsp, err := dial("https://evil.example"); err == nil || rsp == nil || rsp.StatusCode != http.StatusForbidden {
		t.Errorf("evil origin: %v", err)
	}
	for _, o := range []string{"https://good.example", ""} {
		if _, err := dial(o); err != nil {
			t.Errorf("origin %q: %v", o, err)
		}
	}
}
