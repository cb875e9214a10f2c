package demo

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Limits of read_file.
const (
	defaultChunk     = 64 << 10
	maxChunk         = 4 << 20
	maxGeneratedSize = 1 << 40
)

// readFileArgs are the arguments of read_file (flow.md).
type readFileArgs struct {
	Path  string `json:"path"`
	Size  *int64 `json:"size"`
	Seed  int64  `json:"seed"`
	Order string `json:"order"`
	Chunk int    `json:"chunk"`
}

// readFileOutput is the structuredContent of read_file.
type readFileOutput struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// readFile serves a sandbox file or generated data over an execution
// stream, or inline where the transport has none.
func (s *Server) readFile(ctx context.Context, c *Call) (*ToolResult, error) {
	var a readFileArgs
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	p, err := s.payloadOf(a)
	if err != nil {
		return nil, err
	}
	chunk := a.Chunk
	switch {
	case chunk == 0:
		chunk = defaultChunk
	case chunk < 0 || chunk > maxChunk:
		return nil, invalidParams("chunk must be between 1 and %d bytes, got %d", maxChunk, chunk)
	}
	order := a.Order
	if order == "" {
		order = "any"
	}
	if order != "any" && order != "stream_first" && order != "response_first" {
		return nil, invalidParams("order must be stream_first, response_first or any, got %q", order)
	}
	st, err := c.Emit.OpenStream()
	if errors.Is(err, ErrNoStreams) {
		return s.readInline(ctx, p, chunk)
	}
	if err != nil {
		return nil, err
	}
	return streamPayload(ctx, c, st, p, order, chunk)
}

// payloadOf picks the file or the generated data the arguments name.
func (s *Server) payloadOf(a readFileArgs) (payload, error) {
	switch {
	case a.Path != "" && a.Size != nil:
		return payload{}, invalidParams("give read_file a path or a size, not both")
	case a.Size != nil:
		size, seed := *a.Size, a.Seed
		if size < 0 || size > maxGeneratedSize {
			return payload{}, invalidParams("size must be between 0 and %d bytes, got %d", int64(maxGeneratedSize), size)
		}
		if seed < 0 {
			return payload{}, invalidParams("seed must not be negative, got %d", seed)
		}
		return payload{
			size: size, mimeType: "application/octet-stream",
			uri: fmt.Sprintf("data:generated?size=%d&seed=%d", size, seed),
			open: func(chunk int) (io.Reader, func(), error) {
				return newGenerator(size, seed, chunk), func() {}, nil
			},
		}, nil
	}
	f, size, err := s.sandbox.open(a.Path)
	if err != nil {
		return payload{}, err
	}
	_ = f.Close()
	name := a.Path
	return payload{
		size: size, mimeType: mimeType(name),
		uri: (&url.URL{Scheme: "file", Path: "/" + strings.TrimPrefix(name, "/")}).String(),
		open: func(int) (io.Reader, func(), error) {
			f, _, err := s.sandbox.open(name)
			if err != nil {
				return nil, nil, err
			}
			return f, func() { _ = f.Close() }, nil
		},
	}, nil
}

// streamPayload sends the payload on st in the order asked for. The sha256
// is computed in the same pass for stream_first, by a first pass otherwise
// (the result, which carries it, goes out before the data).
func streamPayload(ctx context.Context, c *Call, st ExecStream, p payload, order string, chunk int) (*ToolResult, error) {
	result := func(sum string) *ToolResult {
		return &ToolResult{
			Content:           []any{flow.NewStreamRef(st.Tag(), p.mimeType, p.size)},
			StructuredContent: readFileOutput{Size: p.size, SHA256: sum},
		}
	}
	send := func() (string, error) {
		sum, err := copyPayload(ctx, p, st, chunk)
		if err != nil {
			st.Abort(fmt.Sprintf("read_file stopped: %v", err))
			return "", err
		}
		return sum, st.Close()
	}
	if order == "stream_first" {
		sum, err := send()
		if err != nil {
			return nil, err
		}
		return result(sum), nil
	}
	sum, err := hashPayload(ctx, p, chunk)
	if err != nil {
		st.Abort(fmt.Sprintf("read_file stopped: %v", err))
		return nil, err
	}
	if order == "any" {
		if err := st.WriteHeader(); err != nil {
			st.Abort(fmt.Sprintf("read_file stopped: %v", err))
			return nil, err
		}
	}
	if err := c.Respond(result(sum)); err != nil {
		st.Abort("the result could not be sent")
		return nil, err
	}
	_, err = send()
	return nil, err
}

// readInline returns the payload as an embedded resource blob (base64) when
// it fits the inline limit.
func (s *Server) readInline(ctx context.Context, p payload, chunk int) (*ToolResult, error) {
	if p.size > s.opts.InlineLimit {
		return nil, invalidParams("%d bytes is too large for stdio; use MCP-Flow (the inline limit is %d bytes)", p.size, s.opts.InlineLimit)
	}
	var buf strings.Builder
	enc := base64.NewEncoder(base64.StdEncoding, &buf)
	sum, err := copyPayload(ctx, p, enc, chunk)
	if err != nil {
		return nil, err
	}
	_ = enc.Close()
	res := &mcp.ResourceContents{URI: p.uri, MimeType: p.mimeType, Blob: buf.String()}
	return &ToolResult{
		Content:           []any{mcp.ContentBlock{Type: "resource", Resource: res}},
		StructuredContent: readFileOutput{Size: p.size, SHA256: sum},
	}, nil
}
