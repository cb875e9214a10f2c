package ws

import (
	"context"
	"encoding/binary"
	"net"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/testkit/rawtcp"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// guardStream runs stream through a fresh guard of limit in one read and
// returns the refusal (nil when every byte passed).
func guardStream(stream []byte, limit int) *frameRefusal {
	g := guardFrames(nil, limit)
	g.inspect(stream)
	return g.refused
}

// A 101 whose lines end in a bare "\n", as net/http accepts, starts the
// frames where net/http does: a frame announcing 10^12 bytes is refused,
// and a valid frame whose payload holds "\r\n\r\n" passes whole.
func TestFrameGuardFindsAHeadOfBareNewlines(t *testing.T) {
	for _, head := range []string{
		"HTTP/1.1 101 Switching Protocols\nUpgrade: websocket\nConnection: Upgrade\n\n",
		"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\n",
		"HTTP/1.1 101 Switching Protocols\nUpgrade: websocket\n\r\n",
	} {
		huge := binary.BigEndian.AppendUint64([]byte{0x82, 127}, 1_000_000_000_000)
		if r := guardStream(append([]byte(head), huge...), 1<<20); r == nil || r.Code != websocket.StatusMessageTooBig {
			t.Errorf("head %q: refusal %v, want the frame of 10^12 bytes refused with 1009", head, r)
		}
		// The payload's "\r\n\r\n" is followed by what reads as a masked
		// frame's head when taken for one.
		payload := []byte("{\"a\":\"\r\n\r\n\x81\x85abcdefgh\"}")
		frame := append([]byte{0x81, byte(len(payload))}, payload...)
		if r := guardStream(append([]byte(head), frame...), 1<<20); r != nil {
			t.Errorf("head %q: a valid frame was refused: %v", head, r)
		}
	}
}

// A frame's 64-bit length with its top bit set, a control frame over 125
// bytes and a fragmented control frame are protocol errors (1002).
func TestFrameGuardRefusesProtocolErrors(t *testing.T) {
	head := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
	topBit := binary.BigEndian.AppendUint64([]byte{0x82, 127}, 1<<63|5)
	longPing := append(binary.BigEndian.AppendUint16([]byte{0x89, 126}, 126), make([]byte, 126)...)
	fragmentedPing := []byte{0x09, 2, 'h', 'i'}
	for name, frame := range map[string][]byte{"top bit": topBit, "long ping": longPing, "fragmented ping": fragmentedPing} {
		if r := guardStream(append([]byte(head), frame...), 1<<20); r == nil || r.Code != websocket.StatusProtocolError {
			t.Errorf("%s: refusal %v, want 1002", name, r)
		}
	}
	if r := guardStream(append([]byte(head), 0x89, 2, 'h', 'i'), 1<<20); r != nil {
		t.Errorf("a ping of 2 bytes was refused: %v", r)
	}
}

// A 101 whose head is over the guard's cap is refused by the dial rather
// than let through unguarded.
func TestDialRefusesAHeadOverTheGuardsCap(t *testing.T) {
	srv := rawtcp.Serve(t, func(_ int, conn net.Conn) {
		req := rawtcp.ReadRequest(conn)
		if req == nil {
			return
		}
		head := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
			gateway.WebSocketAccept(req.Header.Get("Sec-WebSocket-Key")) + "\r\nX-Pad: " + strings.Repeat("a", 70_000) + "\r\n\r\n"
		huge := binary.BigEndian.AppendUint64([]byte{0x81, 127}, 1_000_000_000_000)
		_, _ = conn.Write(append([]byte(head), huge...))
		rawtcp.Hold(conn)
	})
	tr, err := New(Config{URL: "ws://" + srv.Addr() + "/mcp", Sink: &frames{}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tr.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if err := tr.Start(ctx, func(*jsonrpc.Message) {}); err == nil {
		t.Fatal("the upgrade with a 70,000-byte header was accepted")
	} else if ctx.Err() != nil {
		t.Fatalf("the upgrade waited for the test's bound: %v", err)
	}
}
