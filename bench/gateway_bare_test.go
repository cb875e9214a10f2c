package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// The bare gateway reader: the baseline of
// BenchmarkGatewayDownloadVsBareReader. It is written straight on
// coder/websocket with nothing of mcpscope's client: it sends the start,
// then reads every message into one reused buffer until a done or an
// error, checking nothing and capturing nothing.

// bareChunkHeader is the size of a binary chunk's header (seed 003).
const bareChunkHeader = 24

// bareGatewayRead bounds one message the bare reader takes whole (a text
// StreamMessage); binary chunks are streamed through its buffer.
const bareGatewayRead = 1 << 20

// bareGatewayDownload opens url, sends start (an encoded StreamMessage)
// and reads the server's messages until a done; it returns the payload
// bytes of the binary chunks.
func bareGatewayDownload(ctx context.Context, url string, start []byte) (int64, error) {
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return 0, fmt.Errorf("bare dial: %w", err)
	}
	defer c.CloseNow()
	c.SetReadLimit(-1)
	if err := c.Write(ctx, websocket.MessageText, start); err != nil {
		return 0, fmt.Errorf("bare start: %w", err)
	}
	buf := make([]byte, bareGatewayRead)
	var payload int64
	for {
		typ, r, err := c.Reader(ctx)
		if err != nil {
			return payload, fmt.Errorf("bare read: %w", err)
		}
		if typ == websocket.MessageBinary {
			n, err := io.CopyBuffer(io.Discard, r, buf)
			if err != nil {
				return payload, fmt.Errorf("bare chunk: %w", err)
			}
			payload += n - bareChunkHeader
			continue
		}
		n, err := io.ReadFull(r, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return payload, fmt.Errorf("bare text message: %w", err)
		}
		var m struct {
			Type  string         `json:"type"`
			Error *jsonrpc.Error `json:"error"`
		}
		if err := json.Unmarshal(buf[:n], &m); err != nil {
			continue // JSON-RPC of the session, or too long: not the end
		}
		switch m.Type {
		case gateway.StreamDone:
			_ = c.Close(websocket.StatusNormalClosure, "")
			return payload, nil
		case gateway.StreamError:
			return payload, fmt.Errorf("bare: the stream failed: %d %s", m.Error.Code, m.Error.Message)
		}
	}
}
