package ws

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/testkit/rawtcp"
)

// closeCodeFrom reads the client's frames from c until its close frame and
// returns the code in it (0 when c ended first).
func closeCodeFrom(c net.Conn) websocket.StatusCode {
	for {
		var h [2]byte
		if _, err := io.ReadFull(c, h[:]); err != nil {
			return 0
		}
		size := uint64(h[1] & 0x7f)
		switch size {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(c, b[:]); err != nil {
				return 0
			}
			size = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(c, b[:]); err != nil {
				return 0
			}
			size = binary.BigEndian.Uint64(b[:])
		}
		var mask [4]byte
		if _, err := io.ReadFull(c, mask[:]); err != nil {
			return 0
		}
		payload := make([]byte, size)
		if _, err := io.ReadFull(c, payload); err != nil {
			return 0
		}
		for i := range payload {
			payload[i] ^= mask[i%4]
		}
		if h[0]&0x0f == 8 && len(payload) >= 2 {
			return websocket.StatusCode(binary.BigEndian.Uint16(payload))
		}
	}
}

// A frame the server must not send closes the connection at once with the
// code that says why, without waiting for bytes that never come.
func TestFrameGuardRefusesTheServersFrame(t *testing.T) {
	text := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`)
	huge := []byte{0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0, 'x', 'y'}
	binary.BigEndian.PutUint64(huge[2:10], 1_000_000_000_000_000_000)
	masked := append([]byte{0x81, 0x80 | byte(len(text)), 1, 2, 3, 4}, text...)
	for i := range text {
		masked[6+i] ^= []byte{1, 2, 3, 4}[i%4]
	}
	for _, c := range []struct {
		name  string
		frame []byte
		code  websocket.StatusCode
		says  string
		head  string
	}{
		{"announces 10^18 bytes", huge, websocket.StatusMessageTooBig, "the server sent a message over --max-frame-size (16777216 bytes): mcpscope closed the WebSocket with 1009 (message too big)", "1000000000000000000 bytes of payload"},
		{"masked", masked, websocket.StatusProtocolError, "the server sent a masked frame (RFC 6455 §5.1: a server never masks, and a client closes the connection on one): mcpscope closed the WebSocket with 1002 (protocol error)", "mask true"},
	} {
		t.Run(c.name, func(t *testing.T) {
			codes := make(chan websocket.StatusCode, 1)
			srv := rawtcp.Serve(t, func(_ int, conn net.Conn) {
				if !rawtcp.Upgrade(conn, "") {
					return
				}
				_, _ = conn.Write(c.frame)
				codes <- closeCodeFrom(conn)
				rawtcp.Hold(conn)
			})
			tr, fr, _ := dial(t, Config{URL: "ws://" + srv.Addr() + "/mcp"})
			err := gone(t, tr)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("the transport ended with %v, want it to say %q", err, c.says)
			}
			select {
			case code := <-codes:
				if code != c.code {
					t.Errorf("the server got a close frame with %d, want %d", code, c.code)
				}
			case <-time.After(bound):
				t.Fatalf("the server got no close frame within %s", bound)
			}
			if fr.find(c.head) == nil {
				t.Errorf("no frame captures the refused frame's head (%s)", c.head)
			}
			if fr.find(fmt.Sprintf("close %d", c.code)) == nil {
				t.Errorf("no frame captures the close %d", c.code)
			}
		})
	}
}

// The guard follows the HTTP answer and frames of every size however the
// bytes are split across reads, and stops the bytes at the head of the
// first refused frame, even when that head is split too.
func TestFrameGuardFollowsSplitReads(t *testing.T) {
	stream := []byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")
	for _, size := range []int{0, 5, 125, 126, 300, 65535, 65536, 70000} {
		head := []byte{0x82, byte(size)}
		switch {
		case size > 65535:
			head = binary.BigEndian.AppendUint64([]byte{0x82, 127}, uint64(size))
		case size > 125:
			head = binary.BigEndian.AppendUint16([]byte{0x82, 126}, uint16(size))
		}
		stream = append(append(stream, head...), make([]byte, size)...)
	}
	good := len(stream)
	stream = append(stream, 0x81, 0x85, 1, 2, 3, 4, 'h', 'e', 'l', 'l', 'o')
	for _, step := range []int{1, 2, 3, 7, 13, 4096, len(stream)} {
		g := guardFrames(nil, 1<<20)
		passed := 0
		for at := 0; at < len(stream) && g.refused == nil; at += step {
			chunk := stream[at:min(at+step, len(stream))]
			passed += g.inspect(chunk)
		}
		if g.refused == nil || g.refused.Code != websocket.StatusProtocolError {
			t.Fatalf("reads of %d bytes: refusal %v, want the masked frame refused", step, g.refused)
		}
		// The refused head's first bytes pass when it began in an
		// earlier read; never a byte past the head.
		if passed < good || passed > good+5 {
			t.Errorf("reads of %d bytes: %d bytes passed, want %d (the refused frame's head held back)", step, passed, good)
		}
	}
}
