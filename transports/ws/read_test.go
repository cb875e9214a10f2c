package ws

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// readMessage delivers every message whole and intact, whatever its size
// against the last one's (equal, one byte over, smaller, empty, much
// larger, over the hint bound), fragmented or not, text and binary
// interleaved; the read limit still closes with 1009.
func TestReadMessageSizes(t *testing.T) {
	sizes := []int{65560, 65560, 65561, 100, 0, 1 << 17, readHintMax + 3, 700, 511, 512, 513}
	payload := func(i, n int) []byte {
		b := make([]byte, n)
		for k := range b {
			b[k] = byte(i*31 + k%253)
		}
		return b
	}
	typeOf := func(i int) websocket.MessageType {
		if i%3 == 2 {
			return websocket.MessageText
		}
		return websocket.MessageBinary
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for i, n := range sizes {
			if i == 5 { // one message in three frames
				wr, err := c.Writer(ctx, typeOf(i))
				if err != nil {
					return
				}
				p := payload(i, n)
				for _, part := range [][]byte{p[:10], p[10 : n/2], p[n/2:]} {
					_, _ = wr.Write(part)
				}
				_ = wr.Close()
				continue
			}
			_ = c.Write(ctx, typeOf(i), payload(i, n))
		}
		_ = c.Write(ctx, websocket.MessageBinary, make([]byte, 4096))
		_, _, _ = c.Read(ctx)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(2 << 20)
	var hint [2]int
	for i, n := range sizes {
		typ, got, err := readMessage(ctx, c, &hint, nil)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if typ != typeOf(i) || !bytes.Equal(got, payload(i, n)) {
			t.Fatalf("message %d: type %v, %d bytes, want type %v, %d bytes intact", i, typ, len(got), typeOf(i), n)
		}
		if cap(got) > max(2*n, readHintMax)+1024 {
			t.Errorf("message %d of %d bytes took a buffer of %d", i, n, cap(got))
		}
	}
	c.SetReadLimit(1024)
	if _, _, err := readMessage(ctx, c, &hint, nil); !errors.Is(err, websocket.ErrMessageTooBig) {
		t.Fatalf("a message over the read limit: %v", err)
	}
}
