package webtransport_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// An execution stream whose header names a request not in flight
// (misbehave foreign_stream) is reset and recorded as -32002 Stream
// Injection in the capture store; the call's own result still arrives.
func TestDemoE2EForeignStreamIsInjection(t *testing.T) {
	d := startDemo(t, flow.Config{})
	sinks := flowtest.NewSinks(0, nil)
	s, _, store := dialDemo(t, d, func(c *webtransport.Config) { c.StreamSink = sinks.Open })
	raw, id, err := callTool(flowtest.Context(t), s, "misbehave", map[string]any{"mode": "foreign_stream"})
	if err != nil || !strings.Contains(string(raw), "not in flight") {
		t.Fatalf("the call's own result did not arrive: %v %s", err, raw)
	}
	var injected []*capture.Frame
	flowtest.Eventually(t, "the injected stream is recorded", func() bool {
		injected = frames(store, func(f *capture.Frame) bool { return f.Chan.Kind == capture.Stream && f.Err != nil })
		return len(injected) > 0
	})
	f := injected[0]
	var inj *webtransport.StreamInjectionError
	if !errors.As(f.Err, &inj) || inj.Code() != mcp.CodeFlowStreamInjection || !strings.Contains(f.Err.Error(), "-32002 Stream Injection") {
		t.Fatalf("the stream frame's error is %v, want -32002 Stream Injection", f.Err)
	}
	if inj.Header.RequestID == id || f.Chan.ReqID != inj.Header.RequestID {
		t.Fatalf("injected header %+v on channel %v; the call was request %d", inj.Header, f.Chan, id)
	}
	key := capture.StreamKeyOf(f)
	flowtest.Eventually(t, "the injected stream is marked reset", func() bool {
		st, ok := store.Stream(key)
		return ok && st.State == capture.StreamReset && st.Err != nil
	})
	if st, _ := store.Stream(key); st.Bytes != 0 || sinks.Len() != 0 {
		t.Fatalf("%d payload bytes of the injected stream were read into %d sinks", st.Bytes, sinks.Len())
	}
}

// A stream the server resets mid-transfer with $/streamError (misbehave
// stream_error) fails with the server's reason, and the capture marks it
// as an error; the bytes before the reset are the generated data.
func TestDemoE2EStreamErrorSurfaced(t *testing.T) {
	const reason = "misbehave: stream reset on purpose mid-transfer"
	d := startDemo(t, flow.Config{})
	sinks := flowtest.NewSinks(0, nil)
	s, tr, store := dialDemo(t, d, func(c *webtransport.Config) { c.StreamSink = sinks.Open })
	ctx := flowtest.Context(t)
	raw, id, err := callTool(ctx, s, "misbehave", map[string]any{"mode": "stream_error"})
	if err != nil {
		t.Fatalf("misbehave stream_error: %v", err)
	}
	var res struct {
		Content []protoflow.StreamRef `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) == 0 || res.Content[0].Type != protoflow.ContentStreamRef {
		t.Fatalf("result does not refer to the stream: %v %s", err, raw)
	}
	key := capture.StreamKey{Conn: conn, ReqID: id, Tag: res.Content[0].StreamTag}

	err = tr.AwaitStreams(ctx, jsonrpc.IntID(int64(id)))
	var failed *webtransport.StreamFailedError
	if !errors.As(err, &failed) || failed.Reported != reason || failed.RequestID != id || failed.StreamTag != key.Tag {
		t.Fatalf("AwaitStreams: %v, want the stream failed with the server's reason %q", err, reason)
	}
	if len(frames(store, controlMethod(capture.In, protoflow.MethodFlowStreamError))) != 1 {
		t.Fatal("the $/streamError notification is not in the capture")
	}
	flowtest.Eventually(t, "the stream is marked error", func() bool {
		st, ok := store.Stream(key)
		return ok && st.State == capture.StreamError && st.Err != nil && strings.Contains(st.Err.Error(), reason)
	})
	n, _, mismatch, _ := sinks.Await(t, key).Result()
	if n != failed.Bytes || n > 4096 || mismatch >= 0 {
		t.Fatalf("the sink got %d bytes (first wrong at %d); the failure counts %d of at most 4096", n, mismatch, failed.Bytes)
	}
}
