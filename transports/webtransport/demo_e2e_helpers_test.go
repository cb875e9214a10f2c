package webtransport_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// These tests run mcpscope's MCP-Flow stack against the demo server over
// loopback: the engine (client.Session) on webtransport.Transport on
// quic-go, the demo/flow server on the other side, nothing faked.

// conn is the connection name of the frames these tests capture.
const conn = "wt"

// dialDemo connects the engine to the demo, pinning its certificate and
// capturing into a fresh store; mod adjusts the transport config.
func dialDemo(t *testing.T, d *flowtest.Demo, mod func(*webtransport.Config)) (*client.Session, *webtransport.Transport, *capture.Store) {
	t.Helper()
	store := capture.NewStore(capture.Config{})
	cfg := webtransport.Config{URL: d.URL(), CertHashes: []string{d.CertHash()}, Sink: store, Conn: conn}
	if mod != nil {
		mod(&cfg)
	}
	tr, err := webtransport.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	if err := s.Connect(flowtest.Context(t)); err != nil {
		t.Fatalf("connecting to the demo: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, tr, store
}

// startDemo starts a demo server with cfg for the test.
func startDemo(t *testing.T, cfg flow.Config) *flowtest.Demo { return flowtest.Start(t, cfg) }

// callTool calls a demo tool and returns its result and the request id.
func callTool(ctx context.Context, s *client.Session, name string, args any, opts ...client.CallOption) (json.RawMessage, uint32, error) {
	var id jsonrpc.ID
	opts = append(opts, client.WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
	res, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": name, "arguments": args}, opts...)
	n, _ := protoflow.FlowRequestID(id)
	return res, n, err
}

// readFileResult is the result of read_file over MCP-Flow.
type readFileResult struct {
	Content           []protoflow.StreamRef `json:"content"`
	StructuredContent struct {
		Size   int64  `json:"size"`
		SHA256 string `json:"sha256"`
	} `json:"structuredContent"`
}

// parseReadFile decodes a read_file result holding one stream reference.
func parseReadFile(t *testing.T, raw json.RawMessage) readFileResult {
	t.Helper()
	var r readFileResult
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) != 1 || r.Content[0].Type != protoflow.ContentStreamRef {
		t.Fatalf("read_file result is not one ref/stream item (%v): %s", err, raw)
	}
	return r
}

// checkIntact fails unless the sink got exactly size bytes of the
// generated data, whose sha256 is also the one the result announced.
func checkIntact(t *testing.T, v *flowtest.Verifier, res readFileResult, size int64) {
	t.Helper()
	n, sum, mismatch, _ := v.Result()
	switch {
	case n != size:
		t.Fatalf("stream %d/%d delivered %d bytes, want %d", v.Key.ReqID, v.Key.Tag, n, size)
	case mismatch >= 0:
		t.Fatalf("stream %d/%d: byte %d differs from the generated data", v.Key.ReqID, v.Key.Tag, mismatch)
	case sum != res.StructuredContent.SHA256 || res.StructuredContent.Size != size:
		t.Fatalf("stream sha256 %s, result announced %s for %d bytes", sum, res.StructuredContent.SHA256, res.StructuredContent.Size)
	}
}

// frames returns the held frames of store that match keep.
func frames(store *capture.Store, keep func(*capture.Frame) bool) []*capture.Frame {
	var out []*capture.Frame
	for _, f := range store.Window(0, store.Len()) {
		if keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// controlMethod matches control frames of dir carrying method.
func controlMethod(dir capture.Dir, method string) func(*capture.Frame) bool {
	return func(f *capture.Frame) bool {
		return f.Chan.Kind == capture.Control && f.Dir == dir && f.Msg != nil && f.Msg.Method == method
	}
}

// answerTo matches the incoming response to request id.
func answerTo(id uint32) func(*capture.Frame) bool {
	return func(f *capture.Frame) bool {
		if f.Chan.Kind != capture.Control || f.Dir != capture.In || f.Msg == nil || f.Msg.ID == nil || f.Msg.Method != "" {
			return false
		}
		n, ok := protoflow.FlowRequestID(*f.Msg.ID)
		return ok && n == id
	}
}
