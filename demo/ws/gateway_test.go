package demows

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/proto/gateway"
)

// system_binary_streams_out: the server's own stream (a fresh id, the
// client's correlationId): start, binary chunks whose 24-byte header
// carries its GUID in .NET order and the index little-endian, then done
// with the summary of what was sent.
func TestGatewayStreamOut(t *testing.T) {
	s := startServer(t, Options{ChunkSize: 65536})
	c := s.dial(t, PathGateway, "mcp")
	if c.c.Subprotocol() != "mcp" {
		t.Errorf("subprotocol %q", c.c.Subprotocol())
	}
	c.text(start(ToolStreamsOut, `"totalSize":150000,"correlationId":"req-1"`))
	m := c.stream()
	if seed, _ := gateway.ParseGUID(seedID); !bytes.Equal(dotNet(seed), unhex(t, seedIDDotNet)) {
		t.Fatalf("the test's .NET order is wrong: % x", dotNet(seed))
	}
	if m.Type != gateway.StreamStart || m.ID.String() == seedID || m.Meta.Method != ToolStreamsOut || !m.Meta.Binary ||
		*m.Meta.TotalSize != 150000 || m.Meta.CorrelationID != "req-1" || m.Timestamp.Location().String() != "UTC" {
		t.Fatalf("start %+v %+v", m, m.Meta)
	}
	sum := sha256.New()
	for i, size := range []int{65536, 65536, 150000 - 131072} {
		b := c.binary()
		head := append(dotNet(m.ID), unhex(t, fmt.Sprintf("%02x 00 00 00 00 00 00 00", i))...)
		if !bytes.Equal(b[:24], head) || len(b) != 24+size {
			t.Fatalf("chunk %d: header % x, %d bytes", i, b[:24], len(b))
		}
		sum.Write(b[24:])
	}
	done := c.stream()
	got := summary(t, done)
	if done.ID != m.ID || got["totalChunks"] != 3.0 || got["totalBytes"] != 150000.0 || got["sha256"] != hex.EncodeToString(sum.Sum(nil)) || got["duration_ms"] == nil {
		t.Errorf("summary %v", got)
	}
}

// system_binary_streams_in: chunks built byte by byte (seed 003's header
// for 550e8400-…: 00 84 0e 55 9b e2 d4 41 a7 16 44 66 55 44 00 00) are
// counted and summed; text chunks count as their JSON.
func TestGatewayStreamIn(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathGateway, "mcp")
	c.text(start(ToolStreamsIn, `"totalSize":10`))
	c.send(websocket.MessageBinary, unhex(t, seedIDDotNet+" 00 00 00 00 00 00 00 00  68 65 6c 6c 6f"))
	c.send(websocket.MessageBinary, unhex(t, seedIDDotNet+" 01 00 00 00 00 00 00 00  77 6f 72 6c 64"))
	c.text(`{"type":"done","id":"` + seedID + `","timestamp":"2024-12-04T10:00:05Z","summary":{"totalChunks":2,"totalBytes":10}}`)
	m := c.stream()
	want := sha256.Sum256([]byte("helloworld"))
	if got := summary(t, m); m.ID.String() != seedID || got["totalChunks"] != 2.0 || got["totalBytes"] != 10.0 || got["sha256"] != hex.EncodeToString(want[:]) {
		t.Errorf("summary %v", got)
	}

	c.text(start(ToolStreamsIn, ""))
	c.text(`{"type":"chunk","id":"` + seedID + `","timestamp":"2024-12-04T10:00:01Z","index":0,"data":"Hello, world!"}`)
	c.text(`{"type":"done","id":"` + seedID + `","timestamp":"2024-12-04T10:00:05Z"}`)
	if got := summary(t, c.stream()); got["totalBytes"] != float64(len(`"Hello, world!"`)) {
		t.Errorf("text upload summary %v", got)
	}
}

// A bad sequence ends the stream with an error naming what broke.
func TestGatewayStreamInRefuses(t *testing.T) {
	chunk := func(t *testing.T, index string) []byte {
		return unhex(t, seedIDDotNet+" "+index+" 00 00 00 00 00 00 00 61")
	}
	done := `{"type":"done","id":"` + seedID + `","timestamp":"2024-12-04T10:00:05Z"}`
	cases := []struct {
		name string
		run  func(t *testing.T, c *client)
		want string
	}{
		{"index gap", func(t *testing.T, c *client) {
			c.text(start(ToolStreamsIn, ""))
			c.send(websocket.MessageBinary, chunk(t, "00"))
			c.send(websocket.MessageBinary, chunk(t, "02"))
		}, "index gap: chunk 2 came where 1 was expected"},
		{"unknown stream", func(t *testing.T, c *client) { c.send(websocket.MessageBinary, chunk(t, "00")) }, "unknown stream " + seedID},
		{"chunk after done", func(t *testing.T, c *client) {
			c.text(start(ToolStreamsIn, ""))
			c.text(done)
			c.stream()
			c.send(websocket.MessageBinary, chunk(t, "00"))
		}, "unknown stream"},
		{"done claims", func(t *testing.T, c *client) {
			c.text(start(ToolStreamsIn, ""))
			c.send(websocket.MessageBinary, chunk(t, "00"))
			c.text(`{"type":"done","id":"` + seedID + `","timestamp":"2024-12-04T10:00:05Z","summary":{"totalBytes":9}}`)
		}, "the done claims 9 bytes; 1 arrived"},
		{"over totalSize", func(t *testing.T, c *client) {
			c.text(start(ToolStreamsIn, `"totalSize":0`))
			c.send(websocket.MessageBinary, chunk(t, "00"))
		}, "more than the 0 bytes"},
		{"twice started", func(t *testing.T, c *client) { c.text(start(ToolStreamsIn, "")); c.text(start(ToolStreamsIn, "")) }, "open already"},
		{"short frame", func(t *testing.T, c *client) { c.send(websocket.MessageBinary, []byte{1, 2, 3}) }, "binary chunk frame"},
		{"bad GUID", func(t *testing.T, c *client) {
			c.text(`{"type":"start","id":"nope","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"x"}}`)
		}, "stream id"},
		{"unknown method", func(t *testing.T, c *client) { c.text(start("no_such_stream", "")) }, `"no_such_stream" streams nothing here`},
	}
	s := startServer(t, Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := s.dial(t, PathGateway, "mcp")
			tc.run(t, c)
			m := c.stream()
			if m.Type != gateway.StreamError || !strings.Contains(m.Error.Message, tc.want) {
				t.Errorf("got %s %+v, want an error with %q", m.Type, m.Error, tc.want)
			}
		})
	}
}

// Duplex: the server's stream starts at once (correlationId: the
// client's stream id) and each chunk is echoed on it before the upload
// ends; done comes on it after the client's.
func TestGatewayDuplex(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathGateway, "mcp")
	c.text(start(ToolStreamsDuplex, ""))
	echo := c.stream()
	if echo.Type != gateway.StreamStart || echo.Meta.Method != ToolStreamsDuplex || echo.Meta.CorrelationID != seedID || echo.ID.String() == seedID {
		t.Fatalf("start %+v %+v", echo, echo.Meta)
	}
	for i := 0; i < 3; i++ {
		tail := fmt.Sprintf(" %02x 00 00 00 00 00 00 00 aa bb", i)
		c.send(websocket.MessageBinary, unhex(t, seedIDDotNet+tail))
		want := append(dotNet(echo.ID), unhex(t, tail)...)
		if got := c.binary(); !bytes.Equal(got, want) {
			t.Fatalf("echo % x, want % x", got, want)
		}
	}
	c.text(`{"type":"chunk","id":"` + seedID + `","timestamp":"2024-12-04T10:00:01Z","index":3,"data":{"k":[1]}}`)
	if m := c.stream(); m.Type != gateway.StreamChunk || m.ID != echo.ID || *m.Index != 3 || string(m.Data) != `{"k":[1]}` {
		t.Fatalf("text echo %+v", m)
	}
	c.text(`{"type":"done","id":"` + seedID + `","timestamp":"2024-12-04T10:00:05Z"}`)
	if m := c.stream(); m.ID != echo.ID || summary(t, m)["totalChunks"] != 4.0 {
		t.Errorf("done %+v", m)
	}
}

// The text stream: one JSON value of each kind, indexes 0…5, then done.
func TestGatewayTextStream(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathGateway, "mcp")
	c.text(start(ToolTextStreamsOut, ""))
	m := c.stream()
	if m.Type != gateway.StreamStart || m.Meta.Binary {
		t.Fatalf("start %+v", m)
	}
	for i, want := range textValues {
		_, raw := c.read()
		if wantRaw := fmt.Sprintf(`"index":%d,"data":%s}`, i, want); !strings.HasSuffix(string(raw), wantRaw) || !strings.HasPrefix(string(raw), `{"type":"chunk","id":"`+m.ID.String()+`","timestamp":"`) {
			t.Errorf("chunk %d: %s", i, raw)
		}
	}
	if got := summary(t, c.stream()); got["totalChunks"] != 6.0 {
		t.Errorf("summary %v", got)
	}
}

// One connection per stream (seed 003 v1.0), several at once; and several
// streams on one connection, each under its own id.
func TestGatewayConnectionsAndStreams(t *testing.T) {
	s := startServer(t, Options{ChunkSize: 1000})
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := s.dial(t, PathGateway, "mcp")
			c.text(start(ToolStreamsOut, `"totalSize":5000`))
			for {
				typ, b, err := c.readErr()
				if err != nil {
					t.Errorf("stream: %v", err)
					return
				}
				if typ == websocket.MessageText && strings.Contains(string(b), `"type":"done"`) {
					return
				}
			}
		}()
	}
	wg.Wait()

	c := s.dial(t, PathGateway, "mcp")
	a, b := gateway.NewGUID(), gateway.NewGUID()
	for _, id := range []gateway.GUID{a, b} {
		c.text(`{"type":"start","id":"` + id.String() + `","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"system_binary_streams_out","binary":true,"totalSize":3000}}`)
	}
	answers := map[gateway.GUID]string{} // the server's stream → the client's it answers
	done := map[string]bool{}
	for len(done) < 2 {
		typ, raw := c.read()
		if typ == websocket.MessageBinary {
			continue
		}
		m, err := gateway.DecodeStreamMessage(raw)
		switch {
		case err != nil:
			t.Fatalf("%s: %v", raw, err)
		case m.Type == gateway.StreamStart:
			answers[m.ID] = m.Meta.CorrelationID
		case m.Type == gateway.StreamDone:
			done[answers[m.ID]] = true
		}
	}
	if !done[a.String()] || !done[b.String()] {
		t.Errorf("done for %v", done)
	}
}

// The gateway speaks JSON-RPC too: tools/list names the stream tools, and
// a tools/call of one says how to start it.
func TestGatewayJSONRPC(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathGateway, "mcp")
	c.text(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	got := c.readText(`"id":1`)
	for _, name := range []string{"echo", ToolStreamsOut, ToolStreamsIn, ToolStreamsDuplex, ToolTextStreamsOut} {
		if !strings.Contains(got, `"name":"`+name+`"`) {
			t.Errorf("tools/list lacks %s", name)
		}
	}
	c.text(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"system_binary_streams_in"}}`)
	if got := c.readText(`"id":2`); !strings.Contains(got, "send a start StreamMessage") {
		t.Errorf("tools/call of a stream tool: %s", got)
	}
}

// A stream the client leaves silent ends with "Stream timeout".
func TestGatewayStreamIdle(t *testing.T) {
	s := startServer(t, Options{StreamIdle: 50 * time.Millisecond})
	c := s.dial(t, PathGateway, "mcp")
	c.text(start(ToolStreamsIn, ""))
	m := c.stream()
	if m.Type != gateway.StreamError || m.Error.Code != -32000 || !strings.HasPrefix(m.Error.Message, "Stream timeout") || string(m.Error.Data) != `{"timeout":0.05}` {
		t.Errorf("idle: %+v", m.Error)
	}
}

// The client's done for a download may come after the server's stream
// ended (seed 003 lets the client end its side at any time): it is taken
// quietly, so the next answer on the connection is the ping's; a done for
// a stream that never started is still an error.
func TestGatewayLateDoneOfADownload(t *testing.T) {
	s := startServer(t, Options{})
	c := s.dial(t, PathGateway, "mcp")
	c.text(start(ToolTextStreamsOut, ""))
	for m := c.stream(); m.Type != gateway.StreamDone; m = c.stream() {
	}
	c.text(`{"type":"done","id":"` + seedID + `","timestamp":"2024-12-04T10:00:01Z"}`)
	c.text(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if _, b := c.read(); string(b) != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Errorf("after the late done: %s", b)
	}
	c.text(`{"type":"done","id":"11111111-2222-3333-4444-555555555555","timestamp":"2024-12-04T10:00:01Z"}`)
	if m := c.stream(); m.Type != gateway.StreamError || !strings.Contains(m.Error.Message, "done for an unknown stream") {
		t.Errorf("a done for a stream never started: %+v %+v", m, m.Error)
	}
}
