package webtransport_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// heldSize is the size of a read_file that the tests hold open mid-stream:
// beyond the client's flow-control windows, so the server cannot finish
// it while the client's sink holds it.
const heldSize = 32 << 20

// Cancelling an analyze call through the engine — its context, or
// Session.Cancel — sends $/cancel for its id; the server aborts and
// answers -32000 Cancelled, after progress datagrams reached the caller.
func TestDemoE2ECancelSendsFlowCancel(t *testing.T) {
	d := startDemo(t, flow.Config{})
	for _, how := range []string{"context", "Session.Cancel"} {
		t.Run(how, func(t *testing.T) {
			s, _, store := dialDemo(t, d, nil)
			ctx, cancel := context.WithCancel(flowtest.Context(t))
			defer cancel()
			var id atomic.Value
			var progress atomic.Int32
			var once sync.Once
			onProgress := func(p mcp.ProgressNotificationParams) {
				if progress.Add(1) < 2 {
					return
				}
				once.Do(func() {
					if how == "context" {
						cancel()
						return
					}
					go func() { _ = s.Cancel(id.Load().(jsonrpc.ID), "the user pressed cancel") }()
				})
			}
			_, err := s.Call(ctx, mcp.MethodToolsCall,
				map[string]any{"name": "analyze", "arguments": map[string]any{"steps": 1000, "interval_ms": 10}},
				client.WithProgress(onProgress), client.WithRounds(func(_ int, got jsonrpc.ID) { id.Store(got) }))
			var ce *client.CancelledError
			if !errors.As(err, &ce) {
				t.Fatalf("Call: %v, want a CancelledError", err)
			}
			n, _ := protoflow.FlowRequestID(id.Load().(jsonrpc.ID))

			// Session.Cancel fails the call before it sends $/cancel.
			var cancels []*capture.Frame
			flowtest.Eventually(t, "$/cancel is sent", func() bool {
				cancels = frames(store, controlMethod(capture.Out, protoflow.MethodFlowCancel))
				return len(cancels) > 0
			})
			var p protoflow.FlowCancelParams
			if len(cancels) != 1 || json.Unmarshal(cancels[0].Msg.Params, &p) != nil || p.RequestID != n || p.Reason == "" {
				t.Fatalf("$/cancel frames %d, params %+v; want one for request %d with a reason", len(cancels), p, n)
			}
			var answers []*capture.Frame
			flowtest.Eventually(t, "the server answers the cancelled request", func() bool {
				answers = frames(store, answerTo(n))
				return len(answers) > 0
			})
			if e := answers[0].Msg.Error; e == nil || e.Code != -32000 || e.Message != "Cancelled" {
				t.Fatalf("answer to the cancelled request: %s", answers[0].Msg.Raw)
			}
			before := frames(store, func(f *capture.Frame) bool {
				return f.Chan.Kind == capture.Datagram && f.Chan.Ch == uint8(protoflow.ChannelProgress) && f.Chan.ReqID == n && f.Seq < cancels[0].Seq
			})
			if progress.Load() < 2 || len(before) < 2 {
				t.Fatalf("%d progress callbacks, %d progress datagrams before $/cancel; want at least 2", progress.Load(), len(before))
			}
		})
	}
}

// Closing the session mid-stream sends $/shutdown, and the stream in
// flight still arrives whole before the session closes.
func TestDemoE2ECloseDrainsStreamInFlight(t *testing.T) {
	d := startDemo(t, flow.Config{})
	gate := flowtest.NewGate(t)
	sinks := flowtest.NewSinks(5, gate.C())
	s, tr, store := dialDemo(t, d, func(c *webtransport.Config) {
		c.StreamSink = sinks.Open
		c.DrainTimeout = guard.Hang
	})
	raw, id, err := callTool(flowtest.Context(t), s, "read_file", map[string]any{"size": heldSize, "seed": 5})
	if err != nil {
		t.Fatalf("read_file: %v", err)
	}
	res := parseReadFile(t, raw)
	key := capture.StreamKey{Conn: conn, ReqID: id, Tag: res.Content[0].StreamTag}
	v := sinks.Await(t, key)
	<-v.Started()

	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	flowtest.Eventually(t, "$/shutdown is sent", func() bool {
		return len(frames(store, controlMethod(capture.Out, protoflow.MethodFlowShutdown))) == 1
	})
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while the stream was held mid-transfer", err)
	default:
	}
	gate.Open()
	select {
	case err := <-closed:
		if err != nil || tr.Err() != nil {
			t.Fatalf("Close: %v, Err %v", err, tr.Err())
		}
	case <-time.After(guard.Hang):
		t.Fatalf("Close did not return within %s", guard.Hang)
	}
	select {
	case <-v.Closed():
	default:
		t.Fatal("Close returned before the stream ended")
	}
	checkIntact(t, v, res, heldSize)
	if st, _ := store.Stream(key); st.State != capture.StreamDone || tr.State() != webtransport.StateClosed {
		t.Fatalf("stream %s, connection %s after Close", st.State, tr.State())
	}
}

// A server that shuts down while the session is idle sends $/shutdown; the
// client's connection ends with that reason, and a later call says so.
func TestDemoE2EServerShutdownWhileIdle(t *testing.T) {
	d := startDemo(t, flow.Config{})
	s, tr, store := dialDemo(t, d, nil)
	if _, _, err := callTool(flowtest.Context(t), s, "echo", map[string]any{"message": "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Stop(); err != nil {
		t.Fatalf("the demo server: %v", err)
	}
	select {
	case <-tr.Done():
	case <-time.After(guard.Hang):
		t.Fatalf("the connection did not end within %s", guard.Hang)
	}
	if !errors.Is(tr.Err(), webtransport.ErrServerShutdown) {
		t.Fatalf("Err %v, want the server's $/shutdown", tr.Err())
	}
	if len(frames(store, controlMethod(capture.In, protoflow.MethodFlowShutdown))) != 1 {
		t.Fatal("no $/shutdown from the server in the capture")
	}
	_, err := s.Call(flowtest.Context(t), mcp.MethodPing, nil)
	var ce *client.ConnectionError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "$/shutdown") {
		t.Fatalf("a call after the shutdown: %v", err)
	}
	hist := tr.History()
	if last := hist[len(hist)-1]; last.To != webtransport.StateClosed || !strings.Contains(last.Reason, "shut") {
		t.Fatalf("last transition %+v", last)
	}
}

// With maxConcurrentStreams 1, a read_file while another one's stream is
// open is refused -32000 Stream Limit Exceeded; the first completes.
func TestDemoE2EStreamLimit(t *testing.T) {
	d := startDemo(t, flow.Config{MaxConcurrentStreams: 1})
	gate := flowtest.NewGate(t)
	sinks := flowtest.NewSinks(1, gate.C())
	s, tr, _ := dialDemo(t, d, func(c *webtransport.Config) { c.StreamSink = sinks.Open })
	if n, ok := tr.Negotiated(); !ok || n.MaxConcurrentStreams != 1 {
		t.Fatalf("negotiated %+v", n)
	}
	ctx := flowtest.Context(t)
	args := map[string]any{"size": heldSize, "seed": 1}
	raw, id, err := callTool(ctx, s, "read_file", args)
	if err != nil {
		t.Fatalf("first read_file: %v", err)
	}
	res := parseReadFile(t, raw)
	v := sinks.Await(t, capture.StreamKey{Conn: conn, ReqID: id, Tag: res.Content[0].StreamTag})
	<-v.Started() // the first stream is open and held

	_, _, err = callTool(ctx, s, "read_file", args)
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc.Err.Code != mcp.CodeFlowStreamLimitExceeded || rpc.Err.Message != "Stream Limit Exceeded" {
		t.Fatalf("second read_file: %v, want -32000 Stream Limit Exceeded", err)
	}
	gate.Open()
	if err := tr.AwaitStreams(ctx, jsonrpc.IntID(int64(id))); err != nil {
		t.Fatalf("the first stream failed: %v", err)
	}
	checkIntact(t, v, res, heldSize)
	if sinks.Len() != 1 {
		t.Fatalf("%d streams opened, want 1", sinks.Len())
	}
}
