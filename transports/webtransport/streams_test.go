package webtransport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// memSinks collects stream payloads in memory, by key.
type memSinks struct {
	mu   sync.Mutex
	bufs map[capture.StreamKey]*bytes.Buffer
}

type memWriter struct {
	s   *memSinks
	key capture.StreamKey
}

func (w memWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.bufs[w.key].Write(p)
}
func (memWriter) Close() error { return nil }

func (s *memSinks) open(key capture.StreamKey) (io.WriteCloser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bufs == nil {
		s.bufs = make(map[capture.StreamKey]*bytes.Buffer)
	}
	s.bufs[key] = &bytes.Buffer{}
	return memWriter{s, key}, nil
}

func (s *memSinks) get(key capture.StreamKey) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.bufs[key]; b != nil {
		return bytes.Clone(b.Bytes())
	}
	return nil
}

// refResult is a tools/call result that refers to stream tag with size.
func refResult(tag uint32, size int) map[string]any {
	return map[string]any{"content": []any{
		map[string]any{"type": "ref/stream", "streamTag": tag, "mimeType": "application/octet-stream", "size": size},
	}}
}

func TestStreamsCorrelatedInEitherOrder(t *testing.T) {
	const size = 3<<20 + 17
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method != mcp.MethodToolsCall {
			echoTool(p, m)
			return
		}
		id := wttest.FlowID(t, m)
		data := wttest.Payload(size, int(id))
		switch wttest.ToolName(m) {
		case "stream_first": // the whole stream, then the response
			str := p.OpenStream(id, 1)
			str.Write(data)
			str.Close()
			p.Result(*m.ID, refResult(1, size))
		case "response_first": // the response, then the stream
			p.Result(*m.ID, refResult(1, size))
			go func() {
				str := p.OpenStream(id, 1)
				str.Write(data)
				str.Close()
			}()
		}
	}))
	sinks := &memSinks{}
	s, tr, store := connect(t, ts, func(c *Config) { c.StreamSink = sinks.open }, client.Options{})
	for _, order := range []string{"stream_first", "response_first"} {
		var id jsonrpc.ID
		raw, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": order},
			client.WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
		if err != nil {
			t.Fatalf("%s: %v", order, err)
		}
		if !strings.Contains(string(raw), `"ref/stream"`) {
			t.Fatalf("%s: result %s", order, raw)
		}
		if err := tr.AwaitStreams(testCtx(t), id); err != nil {
			t.Fatalf("%s: AwaitStreams: %v", order, err)
		}
		n, _ := FlowRequestID(id)
		key := tr.streamKey(n, 1)
		if got := sinks.get(key); !bytes.Equal(got, wttest.Payload(size, int(n))) {
			t.Fatalf("%s: stream sink got %d bytes, want the %d generated", order, len(got), size)
		}
		st, ok := store.Stream(key)
		if !ok || st.State != capture.StreamDone || st.Bytes != size || st.Size != size {
			t.Fatalf("%s: store has %+v", order, st)
		}
		if head := store.StreamHead(key); !bytes.Equal(head, wttest.Payload(size, int(n))[:len(head)]) || len(head) == 0 {
			t.Fatalf("%s: stream head is not the payload's start", order)
		}
	}
}

func TestInjectedStreamIsResetAndReported(t *testing.T) {
	resetSeen := make(chan error, 1)
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			str := p.OpenStream(99999, 7) // no such request in flight
			go func() {
				chunk := make([]byte, 64<<10)
				for {
					if _, err := str.Write(chunk); err != nil {
						resetSeen <- err
						return
					}
				}
			}()
		}
		echoTool(p, m)
	}))
	s, tr, store := connect(t, ts, nil, client.Options{})
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"}); err != nil {
		t.Fatal(err)
	}
	key := tr.streamKey(99999, 7)
	eventually(t, "the injected stream is marked reset", func() bool {
		st, ok := store.Stream(key)
		return ok && st.State == capture.StreamReset
	})
	var werr error
	select {
	case werr = <-resetSeen:
	case <-testCtx(t).Done():
		t.Fatal("the server's writes to the injected stream never failed")
	}
	if !strings.Contains(werr.Error(), "stream canceled") {
		t.Fatalf("server write error %v, want the client's STOP_SENDING", werr)
	}
	var inj *StreamInjectionError
	found := false
	for _, f := range store.Window(0, store.Len()) {
		if f.Chan.Kind == capture.Stream && errors.As(f.Err, &inj) {
			found = true
			if inj.Header.RequestID != 99999 || inj.Header.StreamTag != 7 || len(f.Raw) != 8 || inj.Code() != mcp.CodeFlowStreamInjection {
				t.Fatalf("injection frame %+v raw % x", inj, f.Raw)
			}
			if !strings.Contains(f.Err.Error(), "-32002 Stream Injection") {
				t.Fatalf("error does not name -32002: %v", f.Err)
			}
		}
	}
	if !found {
		t.Fatal("no Stream Injection frame was captured")
	}
	if st, _ := store.Stream(key); st.Bytes != 0 {
		t.Fatalf("the injected stream's payload was read: %d bytes", st.Bytes)
	}
	if _, err := s.Call(testCtx(t), mcp.MethodPing, nil); err != nil {
		t.Fatalf("the session did not survive the injection: %v", err)
	}
}

func TestStreamErrorIsSurfaced(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method != mcp.MethodToolsCall {
			echoTool(p, m)
			return
		}
		id := wttest.FlowID(t, m)
		p.Result(*m.ID, refResult(1, 1<<20))
		str := p.OpenStream(id, 1)
		str.Write(wttest.Payload(1000, 0))
		str.CancelWrite(1)
		p.Notify(MethodStreamError, StreamErrorParams{RequestID: id, StreamTag: 1, Error: "disk on fire"})
	}))
	var notes sync.Map
	s, tr, store := connect(t, ts, nil, client.Options{OnNotification: func(m *jsonrpc.Message) { notes.Store(m.Method, true) }})
	var id jsonrpc.ID
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"},
		client.WithRounds(func(_ int, got jsonrpc.ID) { id = got })); err != nil {
		t.Fatal(err)
	}
	err := tr.AwaitStreams(testCtx(t), id)
	var failed *StreamFailedError
	if !errors.As(err, &failed) || failed.StreamTag != 1 {
		t.Fatalf("AwaitStreams: %v, want a StreamFailedError", err)
	}
	n, _ := FlowRequestID(id)
	eventually(t, "the stream is marked error with the server's reason", func() bool {
		st, ok := store.Stream(tr.streamKey(n, 1))
		return ok && st.State == capture.StreamError && st.Err != nil && strings.Contains(st.Err.Error(), "disk on fire")
	})
	eventually(t, "$/streamError reaches the engine", func() bool { _, ok := notes.Load(MethodStreamError); return ok })
}

func TestAwaitStreamsEndsWithSession(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("json", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			p.Result(*m.ID, refResult(4, 10)) // the stream never comes
			return
		}
		echoTool(p, m)
	}))
	s, tr, _ := connect(t, ts, nil, client.Options{})
	var id jsonrpc.ID
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"},
		client.WithRounds(func(_ int, got jsonrpc.ID) { id = got })); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	cancel()
	if err := tr.AwaitStreams(ctx, id); !errors.Is(err, context.Canceled) {
		t.Fatalf("AwaitStreams with an ended context: %v", err)
	}
	_ = s.Close()
	if err := tr.AwaitStreams(testCtx(t), id); !errors.Is(err, errNeverArrived) {
		t.Fatalf("AwaitStreams after the session ended: %v", err)
	}
}

func TestFileStreamSinkAndFailedStore(t *testing.T) {
	dir := t.TempDir()
	const size = 200_000
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method != mcp.MethodToolsCall {
			echoTool(p, m)
			return
		}
		id := wttest.FlowID(t, m)
		p.Result(*m.ID, refResult(1, size))
		str := p.OpenStream(id, 1)
		str.Write(wttest.Payload(size, 3))
		str.Close()
	}))
	for _, c := range []struct {
		name string
		dir  string
		ok   bool
	}{
		{"writable directory", filepath.Join(dir, "out"), true},
		{"a file in the way", filepath.Join(dir, "blocker"), false},
	} {
		if !c.ok {
			if err := os.WriteFile(c.dir, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, tr, store := connect(t, ts, func(cfg *Config) { cfg.StreamSink = FileStreamSink(c.dir) }, client.Options{})
		var id jsonrpc.ID
		if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "x"},
			client.WithRounds(func(_ int, got jsonrpc.ID) { id = got })); err != nil {
			t.Fatal(err)
		}
		err := tr.AwaitStreams(testCtx(t), id)
		n, _ := FlowRequestID(id)
		key := tr.streamKey(n, 1)
		if c.ok {
			got, rerr := os.ReadFile(filepath.Join(c.dir, StreamFileName(key)))
			if err != nil || rerr != nil || !bytes.Equal(got, wttest.Payload(size, 3)) {
				t.Fatalf("%s: await %v, read %v, %d bytes", c.name, err, rerr, len(got))
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "stream directory") {
			t.Fatalf("%s: await %v, want the storage failure", c.name, err)
		}
		if st, _ := store.Stream(key); st.State != capture.StreamError {
			t.Fatalf("%s: stream state %s", c.name, st.State)
		}
	}
}

func TestChunkFrameAllocations(t *testing.T) {
	key := capture.StreamKey{Conn: "wt", ReqID: 1, Tag: 1}
	buf := make([]byte, 64<<10)
	allocs := testing.AllocsPerRun(100, func() { _ = chunkFrame(key, buf, nil) })
	if allocs > 2 {
		t.Fatalf("a chunk frame costs %.0f allocations, want the frame and its bytes only", allocs)
	}
}
