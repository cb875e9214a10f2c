package webtransport

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

func TestStateMachineTransitionsInOrder(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", echoTool))
	var mu sync.Mutex
	var seen []State
	s, tr, _ := connect(t, ts, func(c *Config) {
		c.OnState = func(tr Transition) {
			mu.Lock()
			seen = append(seen, tr.To)
			mu.Unlock()
		}
	}, client.Options{})
	if tr.State() != StateReady {
		t.Fatalf("state after Connect: %s", tr.State())
	}
	if err := s.Close(); err != nil || tr.Err() != nil {
		t.Fatalf("Close: %v, Err %v", err, tr.Err())
	}
	want := []State{StateConnected, StateControlStreamOpened, StateInitializing, StateReady, StateClosed}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != len(want) {
		t.Fatalf("observed %v, want %v", seen, want)
	}
	hist := tr.History()
	for i, w := range want {
		if seen[i] != w || hist[i].To != w || hist[i].Reason == "" {
			t.Fatalf("transition %d: observed %s, history %+v, want %s", i, seen[i], hist[i], w)
		}
	}
	if hist[0].From != StateClosed || hist[4].From != StateReady {
		t.Fatalf("history %+v", hist)
	}
}

func TestLyingLengthPrefixEndsSession(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			lie := binary.BigEndian.AppendUint32(nil, 0x7fffff00) // claims ~2 GiB
			p.WriteRaw(append(lie, "tiny"...))
			return
		}
		echoTool(p, m)
	}))
	s, tr, store := connect(t, ts, nil, client.Options{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "lie"})
	runtime.ReadMemStats(&after)
	var conn *client.ConnectionError
	var pe *client.ProtocolError
	if !errors.As(err, &conn) || !errors.As(err, &pe) || !strings.Contains(err.Error(), "2147483392 bytes") {
		t.Fatalf("call: %v, want a connection error naming the lying length", err)
	}
	t.Log(err)
	<-tr.Done()
	if !errors.As(tr.Err(), &pe) || tr.State() != StateClosed {
		t.Fatalf("Err %v, state %s", tr.Err(), tr.State())
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Fatalf("%d MiB were allocated for a frame that was refused", grew>>20)
	}
	var tooLarge *flow.FrameTooLargeError
	in := controlFrames(store, capture.In)
	if last := in[len(in)-1]; !errors.As(last.Err, &tooLarge) || len(last.Raw) != 4 {
		t.Fatalf("last captured frame %+v, want the 4-byte prefix with a FrameTooLargeError", last)
	}
}

func TestCloseSendsShutdownAndDrains(t *testing.T) {
	const size = 1 << 20
	shutdown := make(chan struct{})
	ts := wttest.NewServer(t, func(p *wttest.Peer) {
		if _, ok := p.Handshake("cbor"); !ok {
			return
		}
		m, ok := p.Next()
		if !ok || m.Method != mcp.MethodToolsCall {
			return
		}
		id := wttest.FlowID(t, m)
		str := p.OpenStream(id, 1)
		str.Write(wttest.Payload(size/2, 0))
		p.Result(*m.ID, refResult(1, size))
		// The stream stays half-sent until the client says $/shutdown; then
		// the server finishes it and waits for the client to close.
		for m, ok := p.Next(); ok; m, ok = p.Next() {
			if m.Method == MethodShutdown {
				close(shutdown)
				str.Write(wttest.Payload(size, 0)[size/2:])
				str.Close()
			}
		}
		<-p.Sess.Context().Done()
	})
	s, tr, store := connect(t, ts, func(c *Config) { c.ShutdownGrace = 100 * time.Millisecond }, client.Options{})
	var id jsonrpc.ID
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"},
		client.WithRounds(func(_ int, got jsonrpc.ID) { id = got })); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-shutdown:
	default:
		t.Fatal("the server never got $/shutdown")
	}
	n, _ := FlowRequestID(id)
	st, _ := store.Stream(tr.streamKey(n, 1))
	if st.State != capture.StreamDone || st.Bytes != size {
		t.Fatalf("stream after Close: %+v, want done with %d bytes (drained)", st, size)
	}
	if tr.Err() != nil || tr.State() != StateClosed {
		t.Fatalf("after a clean Close: Err %v, state %s", tr.Err(), tr.State())
	}
	out := controlFrames(store, capture.Out)
	if last := out[len(out)-1]; last.Msg.Method != MethodShutdown || last.Enc != proto.EncCBOR {
		t.Fatalf("last frame sent %+v, want $/shutdown in CBOR", last.Msg)
	}
}

func TestCancelIsSentOnTimeout(t *testing.T) {
	cancels := make(chan CancelParams, 2)
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		switch m.Method {
		case MethodCancel:
			var c CancelParams
			if err := json.Unmarshal(m.Params, &c); err != nil {
				t.Error(err)
			}
			cancels <- c
			p.Send(jsonrpc.NewErrorResponse(jsonrpc.IntID(int64(c.RequestID)), -32000, "Cancelled", nil))
		case mcp.MethodNotifyCancelled:
			t.Error("notifications/cancelled was sent on MCP-Flow")
		case mcp.MethodToolsCall: // never answered
		default:
			echoTool(p, m)
		}
	}))
	s, _, _ := connect(t, ts, nil, client.Options{})
	var id jsonrpc.ID
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "analyze"},
		client.WithTimeout(100*time.Millisecond), client.WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
	var te *client.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a timeout", err)
	}
	select {
	case c := <-cancels:
		if n, _ := FlowRequestID(id); c.RequestID != n || !strings.Contains(c.Reason, "timed out") {
			t.Fatalf("$/cancel %+v for id %s", c, id)
		}
	case <-testCtx(t).Done():
		t.Fatal("no $/cancel arrived")
	}
	if _, err := s.Call(testCtx(t), mcp.MethodPing, nil); err != nil {
		t.Fatal(err)
	}
}

func TestServerShutdownClosesTransport(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			p.Notify(MethodShutdown, nil)
			return // the call is never answered
		}
		echoTool(p, m)
	}))
	s, tr, _ := connect(t, ts, nil, client.Options{})
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"})
	var conn *client.ConnectionError
	if !errors.As(err, &conn) || !errors.Is(err, ErrServerShutdown) {
		t.Fatalf("pending call: %v, want a ConnectionError naming the server's shutdown", err)
	}
	<-tr.Done()
	if !errors.Is(tr.Err(), ErrServerShutdown) || tr.State() != StateClosed {
		t.Fatalf("Err %v, state %s", tr.Err(), tr.State())
	}
}

func TestDroppedSessionFailsPendingCalls(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			_ = p.Sess.CloseWithError(42, "going away")
			return
		}
		echoTool(p, m)
	}))
	s, tr, _ := connect(t, ts, nil, client.Options{})
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "drop"})
	var conn *client.ConnectionError
	if !errors.As(err, &conn) || !strings.Contains(err.Error(), "going away") {
		t.Fatalf("pending call: %v, want a ConnectionError with the server's reason", err)
	}
	t.Log(err)
	<-tr.Done()
	if tr.Err() == nil || tr.State() != StateClosed {
		t.Fatalf("Err %v, state %s", tr.Err(), tr.State())
	}
	if err := tr.Send(testCtx(t), &jsonrpc.Message{JSONRPC: "2.0", Method: "x"}); !errors.As(err, &conn) {
		t.Fatalf("Send after the drop: %v", err)
	}
}

func TestRefusedSessionNamesTheStatus(t *testing.T) {
	ts := wttest.NewServer(t, func(p *wttest.Peer) {})
	_, err := startOnly(t, ts, func(c *Config) { c.URL = strings.TrimSuffix(ts.URL, "/mcp") + "/elsewhere" })
	if err == nil || !strings.Contains(err.Error(), "HTTP status 404") {
		t.Fatalf("Start: %v, want the 404 named", err)
	}
}
