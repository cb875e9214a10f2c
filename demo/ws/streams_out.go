package demows

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// pattern fills p with the bytes system_binary_streams_out sends from
// offset on: a repeating sequence that is not all one value, so a chunk
// out of place changes the sha256.
func pattern(p []byte, offset int64) {
	for i := range p {
		p[i] = byte((offset + int64(i)) % 251)
	}
}

// streamOut is system_binary_streams_out on the server's stream id:
// start, binary chunks of ChunkSize bytes up to the totalSize asked, then
// done with the summary.
func (s *session) streamOut(ctx context.Context, id gateway.GUID, correlation string, asked *int64) error {
	total := int64(DefaultStreamOut)
	if asked != nil {
		total = *asked
	}
	if limit := s.h.opts.MaxStreamOut; total < 0 || total > limit {
		return s.sendStream(&gateway.StreamMessage{Type: gateway.StreamError, ID: id, Error: &jsonrpc.Error{Code: mcp.CodeInvalidParams,
			Message: fmt.Sprintf("totalSize must be between 0 and %d, got %d", limit, total)}})
	}
	meta := gateway.StreamMeta{Method: ToolStreamsOut, Binary: true, Name: "demo.bin", Mime: "application/octet-stream",
		CorrelationID: correlation, TotalSize: &total}
	started := time.Now()
	if err := s.sendStream(&gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: &meta}); err != nil {
		return err
	}
	sum := sha256.New()
	payload := make([]byte, s.h.opts.ChunkSize)
	var buf []byte
	var sent, index int64
	for ; sent < total; index++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := payload[:min(int64(len(payload)), total-sent)]
		pattern(p, sent)
		sum.Write(p)
		var err error
		if buf, err = s.sendChunk(buf, id, index, p); err != nil {
			return err
		}
		sent += int64(len(p))
	}
	return s.sendDone(id, index, sent, started, sum)
}

// textValues are what system_text_streams_out streams: one JSON value of
// each kind.
var textValues = []string{`"Hello, world!"`, `42`, `true`, `{"line":4,"text":"an object"}`, `[1,"two",3.5]`, `null`}

// streamText is system_text_streams_out on the server's stream id: start,
// a text chunk per value of textValues, then done.
func (s *session) streamText(ctx context.Context, id gateway.GUID, correlation string) error {
	meta := gateway.StreamMeta{Method: ToolTextStreamsOut, Binary: false, Name: "values.json", Mime: "application/json", CorrelationID: correlation}
	started := time.Now()
	if err := s.sendStream(&gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: &meta}); err != nil {
		return err
	}
	sum := sha256.New()
	var bytes int64
	for i, v := range textValues {
		if err := ctx.Err(); err != nil {
			return err
		}
		index := int64(i)
		if err := s.sendStream(&gateway.StreamMessage{Type: gateway.StreamChunk, ID: id, Index: &index, Data: json.RawMessage(v)}); err != nil {
			return err
		}
		sum.Write([]byte(v))
		bytes += int64(len(v))
	}
	return s.sendDone(id, int64(len(textValues)), bytes, started, sum)
}
