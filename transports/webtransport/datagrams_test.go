package webtransport

import (
	"runtime"
	"sync"
	"sync/atomic"
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

// until calls fn every few milliseconds until done is closed: datagrams may
// be lost, so a test repeats one until the client shows it got it.
func until(done <-chan struct{}, fn func()) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(hangGuard)
	for {
		fn()
		select {
		case <-done:
			return
		case <-timeout:
			return
		case <-tick.C:
		}
	}
}

func TestProgressDatagramReachesWithProgress(t *testing.T) {
	got := make(chan mcp.ProgressNotificationParams, 64)
	seen := make(chan struct{})
	var once sync.Once
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method != mcp.MethodToolsCall {
			echoTool(p, m)
			return
		}
		id := wttest.FlowID(t, m)
		body, err := flow.ProgressDatagram{Progress: 3, Total: 10, Message: "step 3/10"}.Encode(proto.EncCBOR)
		if err != nil {
			t.Error(err)
		}
		until(seen, func() { p.Datagram(flow.ChannelProgress, id, body) })
		p.Result(*m.ID, map[string]any{"content": []any{}})
	}))
	s, _, store := connect(t, ts, nil, client.Options{})
	var id jsonrpc.ID
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "analyze"},
		client.WithRounds(func(_ int, got jsonrpc.ID) { id = got }),
		client.WithProgress(func(p mcp.ProgressNotificationParams) {
			got <- p
			once.Do(func() { close(seen) })
		}))
	if err != nil {
		t.Fatal(err)
	}
	var p mcp.ProgressNotificationParams
	select {
	case p = <-got:
	default:
		t.Fatal("the call returned before its progress callback ran")
	}
	if p.ProgressToken != id || p.Progress != 3 || p.Total == nil || *p.Total != 10 || p.Message != "step 3/10" {
		t.Fatalf("progress %+v, want token %s 3/10 \"step 3/10\"", p, id)
	}
	n, _ := FlowRequestID(id)
	var dg *capture.Frame
	for _, f := range store.Window(0, store.Len()) {
		if f.Chan.Kind == capture.Datagram {
			dg = f
			break
		}
	}
	if dg == nil || dg.Chan.Ch != uint8(flow.ChannelProgress) || dg.Chan.ReqID != n || dg.Enc != proto.EncCBOR || dg.Err != nil || dg.Msg != nil {
		t.Fatalf("captured datagram %+v", dg)
	}
}

func TestUnknownAndAudioDatagramsRecorded(t *testing.T) {
	seen := make(chan struct{})
	ts := wttest.NewServer(t, wttest.Serve("json", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == "go" {
			go until(seen, func() {
				p.Datagram(flow.DatagramChannel(0x07), 5, []byte("??"))
				p.Datagram(flow.ChannelAudio, 5, make([]byte, 640))
			})
		}
		echoTool(p, m)
	}))
	s, _, store := connect(t, ts, nil, client.Options{})
	if err := s.Notify(testCtx(t), "go", nil); err != nil {
		t.Fatal(err)
	}
	var unknown, audio *capture.Frame
	eventually(t, "an unknown-channel and an audio datagram are captured", func() bool {
		for _, f := range store.Window(0, store.Len()) {
			switch {
			case f.Chan.Kind != capture.Datagram:
			case f.Chan.Ch == 0x07:
				unknown = f
			case f.Chan.Ch == uint8(flow.ChannelAudio):
				audio = f
			}
		}
		return unknown != nil && audio != nil
	})
	close(seen)
	if unknown.Err != nil || unknown.Chan.ReqID != 5 || unknown.Fields[0].Value != "unknown (0x07)" || string(unknown.Raw[6:]) != "??" {
		t.Fatalf("unknown datagram %+v", unknown)
	}
	if audio.Err != nil || audio.Enc != proto.EncBinary || audio.Size != 646 {
		t.Fatalf("audio datagram %+v", audio)
	}
}

func TestDatagramFloodIsBounded(t *testing.T) {
	const flood = 50_000
	var sent atomic.Int64
	ts := wttest.NewServer(t, wttest.Serve("cbor", func(p *wttest.Peer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodToolsCall {
			body, _ := flow.LogDatagram{Level: "info", Logger: "flood", Data: []byte(`"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"`)}.Encode(proto.EncCBOR)
			id := wttest.FlowID(t, m)
			for range flood {
				p.Datagram(flow.ChannelLog, id, body)
				sent.Add(1)
			}
		}
		echoTool(p, m)
	}))
	store := capture.NewStore(capture.Config{MaxFrames: 1000, MaxBytes: 1 << 20})
	s, _, _ := connect(t, ts, func(c *Config) { c.Sink = store }, client.Options{})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "flood"}); err != nil {
		t.Fatal(err)
	}
	// The call is answered after the flood; let the reader catch up with
	// what is still queued, then ping through.
	if _, err := s.Call(testCtx(t), mcp.MethodPing, nil); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	st := store.Stats()
	t.Logf("sent %d datagrams, captured %d frames in total, %d held; heap %d → %d KiB",
		sent.Load(), st.TotalFrames, st.Frames, before.HeapAlloc>>10, after.HeapAlloc>>10)
	if st.Frames > 1000 {
		t.Fatalf("the store holds %d frames, over its cap", st.Frames)
	}
	if st.TotalFrames < 1000 {
		t.Fatalf("only %d frames were captured; the datagrams did not arrive", st.TotalFrames)
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 32<<20 {
		t.Fatalf("the heap grew by %d MiB during a datagram flood", grown>>20)
	}
}
