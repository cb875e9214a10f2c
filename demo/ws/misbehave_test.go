package demows

import (
	"bytes"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/proto/gateway"
)

// frames reads messages until a done or error StreamMessage and returns
// them all: text as is, binary as their bytes.
func (c *client) frames() (texts []*gateway.StreamMessage, chunks [][]byte) {
	c.t.Helper()
	for {
		typ, b := c.read()
		if typ == websocket.MessageBinary {
			chunks = append(chunks, b)
			continue
		}
		m, err := gateway.DecodeStreamMessage(b)
		if err != nil {
			continue // a JSON-RPC answer
		}
		texts = append(texts, m)
		if m.Type == gateway.StreamDone || m.Type == gateway.StreamError {
			return texts, chunks
		}
	}
}

// index is the index of a chunk frame.
func index(t *testing.T, b []byte) int64 {
	t.Helper()
	h, _, _, err := gateway.ParseGatewayChunkHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	return h.Index
}

// Each broken stream, answering a start whose meta.method is misbehave:
// the bytes break the seed as the mode says.
func TestMisbehaveStreams(t *testing.T) {
	s := startServer(t, Options{})
	run := func(mode string) ([]*gateway.StreamMessage, [][]byte) {
		c := s.dial(t, PathGateway, "mcp")
		c.text(start("misbehave", `"mode":"`+mode+`"`))
		return c.frames()
	}

	texts, chunks := run("rfc_guid")
	if len(chunks) != 1 || !bytes.Equal(chunks[0][:16], texts[0].ID[:]) || bytes.Equal(chunks[0][:16], dotNet(texts[0].ID)) {
		t.Errorf("rfc_guid: % x", chunks)
	}
	if texts[0].Type != gateway.StreamStart || texts[len(texts)-1].Type != gateway.StreamDone {
		t.Errorf("rfc_guid: %v", texts)
	}

	_, chunks = run("index_gap")
	var got []int64
	for _, b := range chunks {
		got = append(got, index(t, b))
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 3 {
		t.Errorf("index_gap: indexes %v", got)
	}

	texts, chunks = run("unknown_stream")
	if len(chunks) != 3 || bytes.Equal(chunks[1][:16], chunks[0][:16]) || !bytes.Equal(chunks[2][:16], dotNet(texts[0].ID)) {
		t.Errorf("unknown_stream: % x", chunks)
	}

	texts, chunks = run("error_mid_stream")
	last := texts[len(texts)-1]
	if len(chunks) != 2 || last.Type != gateway.StreamError || last.Error.Code != -32000 || !strings.Contains(last.Error.Message, "midway") {
		t.Errorf("error_mid_stream: %d chunks, %+v", len(chunks), last.Error)
	}

	c := s.dial(t, PathGateway, "mcp")
	c.text(start("misbehave", `"name":"index_gap"`)) // meta.name names the mode too
	if _, chunks = c.frames(); len(chunks) != 3 || index(t, chunks[2]) != 3 {
		t.Errorf("index_gap by meta.name: %d chunks", len(chunks))
	}

	texts, _ = run("no_such_mode")
	if len(texts) != 1 || texts[0].Type != gateway.StreamError || !strings.Contains(texts[0].Error.Message, "breaks no stream") {
		t.Errorf("unknown mode: %+v", texts[0])
	}
}

// On the gateway, tools/call misbehave sends the broken stream under a
// fresh id whose correlationId is the call's id, then answers the call.
func TestMisbehaveStreamByToolCall(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathGateway, "mcp")
	c.text(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"misbehave","arguments":{"mode":"index_gap"}}}`)
	texts, chunks := c.frames()
	if texts[0].Meta.CorrelationID != "5" || texts[0].Meta.Method != "misbehave" || len(chunks) != 3 || index(t, chunks[2]) != 3 {
		t.Errorf("start %+v, %d chunks", texts[0].Meta, len(chunks))
	}
	if got := c.readText(`"id":5`); !strings.Contains(got, "misbehaved: streamed index_gap as stream "+texts[0].ID.String()) {
		t.Errorf("answer %s", got)
	}
}
