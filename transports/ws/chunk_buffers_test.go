package ws

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// chunkPayload is the payload of chunk i of the reuse tests.
func chunkPayload(i int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("chunk %04d;", i)), 100)
}

// startChunks serves a download of n binary chunks then a done, and
// returns a transport reading it into a store that keeps only the head
// (the first chunk), whose events go to take on the reading goroutine.
func startChunks(t *testing.T, n int, take func(StreamEvent)) *capture.Store {
	t.Helper()
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		start := &gateway.StreamMessage{Type: gateway.StreamStart, ID: knownGUID, Meta: &gateway.StreamMeta{Method: "system_binary_streams_out", Binary: true}}
		_ = c.Write(ctx, websocket.MessageText, streamMsg(t, start))
		for i := range n {
			_ = c.Write(ctx, websocket.MessageBinary, gateway.AppendGatewayChunk(nil, knownGUID, int64(i), chunkPayload(i)))
		}
		_ = c.Write(ctx, websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamDone, ID: knownGUID}))
		_, _, _ = c.Read(ctx)
	})
	st := capture.NewStore(capture.Config{StreamHead: 8, StreamTail: 8})
	done := make(chan struct{})
	tr, err := New(Config{URL: p.url, Mode: ModeGateway, Sink: st, OnStream: func(ev StreamEvent) {
		take(ev)
		if ev.Type == gateway.StreamDone {
			close(done)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Start(ctxT(t), func(*jsonrpc.Message) {}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	select {
	case <-done:
	case <-ctxT(t).Done():
		t.Fatal("the download did not end")
	}
	return st
}

// TestGatewayChunkBuffersReused: a chunk the capture keeps nothing of
// gives its buffer back when its taker releases it, and the next chunk is
// read into it; the head the capture keeps is never reused, a buffer
// released twice serves one chunk, and an event not released keeps its
// data.
func TestGatewayChunkBuffersReused(t *testing.T) {
	const n = 6
	var (
		at   []*byte // where each chunk's data lies
		kept StreamEvent
	)
	st := startChunks(t, n, func(ev StreamEvent) {
		if ev.Type != gateway.StreamChunk {
			return
		}
		i := int(ev.Index)
		if !bytes.Equal(ev.Data, chunkPayload(i)) {
			t.Errorf("chunk %d holds %.20q…", i, ev.Data)
		}
		at = append(at, &ev.Data[0])
		switch i {
		case 2:
			ev.Release()
			ev.Release() // a second release gives nothing back
		case 3:
			kept = ev // not released: chunk 4 gets a buffer of its own
		default:
			ev.Release() // the head's (0) does nothing: the capture keeps it
		}
	})
	if len(at) != n {
		t.Fatalf("%d chunks of %d", len(at), n)
	}
	reused := func(i, j int) bool { return at[i] == at[j] }
	if reused(0, 1) || !reused(1, 2) || !reused(2, 3) || reused(3, 4) || !reused(4, 5) {
		t.Errorf("buffers shared: 0-1 %v, 1-2 %v, 2-3 %v, 3-4 %v, 4-5 %v (want false true true false true)",
			reused(0, 1), reused(1, 2), reused(2, 3), reused(3, 4), reused(4, 5))
	}
	if !bytes.Equal(kept.Data, chunkPayload(3)) {
		t.Errorf("the chunk not released changed: %.20q…", kept.Data)
	}
	ss := st.Streams()
	if len(ss) != 1 || !bytes.HasPrefix(chunkPayload(0), st.StreamHead(ss[0].Key)) || len(st.StreamHead(ss[0].Key)) == 0 {
		t.Errorf("the capture's head of the stream: %q", st.StreamHead(ss[0].Key))
	}
}

// TestGatewayChunksNotReleasedKept: a taker that never releases keeps
// every chunk's data intact, each in a buffer of its own.
func TestGatewayChunksNotReleasedKept(t *testing.T) {
	const n = 5
	var all []StreamEvent
	startChunks(t, n, func(ev StreamEvent) {
		if ev.Type == gateway.StreamChunk {
			all = append(all, ev)
		}
	})
	for i, ev := range all {
		if !bytes.Equal(ev.Data, chunkPayload(i)) {
			t.Errorf("chunk %d holds %.20q… once all were read", i, ev.Data)
		}
	}
}
