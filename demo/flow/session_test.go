package flow

import (
	"encoding/binary"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/quic-go/webtransport-go"
)

// datagram is one received datagram, split.
type datagram struct {
	h       flow.DatagramHeader
	raw     []byte
	payload []byte
}

// collectDatagrams gathers datagrams until stop is closed, then sends them.
func (c *rawClient) collectDatagrams(stop <-chan struct{}) <-chan []datagram {
	out := make(chan []datagram, 1)
	ctx, cancel := withHang()
	go func() {
		<-stop
		cancel()
	}()
	go func() {
		var got []datagram
		for {
			b, err := c.sess.ReceiveDatagram(ctx)
			if err != nil {
				out <- got
				return
			}
			h, payload, _, err := flow.ParseDatagramHeader(b)
			if err != nil {
				c.t.Errorf("datagram % x: %v", b, err)
				continue
			}
			got = append(got, datagram{h: h, raw: b, payload: payload})
		}
	}()
	return out
}

// analyze sends a progress and a log datagram per step, each opening with
// the 6-byte header (channel, flags 0, request id), payloads in CBOR; tone
// sends audio datagrams of 640 bytes.
func TestDatagramsCarryHeader(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	stop := make(chan struct{})
	got := c.collectDatagrams(stop)
	if m := c.toolCall(7, "analyze", map[string]any{"steps": 3, "interval_ms": 5}); !strings.Contains(string(m.Result), "analysis complete") {
		t.Fatalf("analyze: %s", describe(m))
	}
	if m := c.toolCall(8, "tone", map[string]any{"duration_ms": 100, "freq_hz": 1000}); !strings.Contains(string(m.Result), "tone sent: 5 datagrams") {
		t.Fatalf("tone: %s", describe(m))
	}
	close(stop)
	kinds := map[flow.DatagramChannel]int{}
	for _, d := range <-got {
		kinds[d.h.Channel]++
		if d.raw[1] != 0 || binary.BigEndian.Uint32(d.raw[2:6]) != d.h.RequestID {
			t.Errorf("header % x", d.raw[:6])
		}
		switch d.h.Channel {
		case flow.ChannelProgress:
			p, err := flow.DecodeProgressDatagram(proto.EncCBOR, d.payload)
			if err != nil || d.h.RequestID != 7 || p.Total != 3 || p.Message != "step "+string(rune('0'+int(p.Progress)))+"/3" {
				t.Errorf("progress %+v (%v) for request %d", p, err, d.h.RequestID)
			}
		case flow.ChannelLog:
			l, err := flow.DecodeLogDatagram(proto.EncCBOR, d.payload)
			if err != nil || d.h.RequestID != 7 || l.Level != "info" || l.Logger != "analyze" {
				t.Errorf("log %+v (%v)", l, err)
			}
		case flow.ChannelAudio:
			if d.h.RequestID != 8 || len(d.payload) != 640 {
				t.Errorf("audio datagram of %d bytes for request %d", len(d.payload), d.h.RequestID)
			}
		default:
			t.Errorf("unexpected channel %s", d.h.Channel)
		}
	}
	if kinds[flow.ChannelProgress] == 0 || kinds[flow.ChannelLog] == 0 || kinds[flow.ChannelAudio] == 0 {
		t.Errorf("datagrams per channel: %v", kinds)
	}
}

// $/cancel aborts analyze, which is answered -32000 "Cancelled".
func TestCancelAnalyze(t *testing.T) {
	c := connect(t, startServer(t, Config{}))
	c.initialize([]string{"cbor"})
	c.requestTool(4, "analyze", map[string]any{"steps": 100000, "interval_ms": 50})
	c.notify(flow.MethodFlowCancel, map[string]any{"requestId": 4, "reason": "User pressed Escape"})
	e := errorOf(t, c.await(4, nil))
	if e.Code != -32000 || e.Message != "Cancelled" {
		t.Errorf("cancelled analyze: %d %s", e.Code, e.Message)
	}
}

// An Origin off the allow-list is refused with 403; no Origin and a listed
// one are accepted.
func TestOriginAllowList(t *testing.T) {
	srv := startServer(t, Config{Origins: []string{"https://allowed.example"}})
	rsp, _, err := dialRaw(t, srv, "https://evil.example")
	if err == nil || rsp == nil || rsp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign origin: %v, %v", rsp, err)
	}
	for _, origin := range []string{"", "https://allowed.example"} {
		if _, sess, err := dialRaw(t, srv, origin); err != nil || sess == nil {
			t.Errorf("origin %q refused: %v", origin, err)
		}
	}
}

// A frame whose prefix claims 4 GiB is answered with an error (id null)
// without allocating it, the session is then closed, and the server goes on
// serving new sessions.
func TestOversizedFrameRefusedWithoutAllocation(t *testing.T) {
	srv := startServer(t, Config{MaxFrameSize: 1024, ShutdownGrace: 100 * time.Millisecond})
	c := connect(t, srv)
	c.initialize([]string{"json"})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := c.ctrl.Write([]byte{0xff, 0xff, 0xff, 0xf0, '{', '"'}); err != nil {
		t.Fatal(err)
	}
	m := c.decode(c.next())
	runtime.ReadMemStats(&after)
	e := errorOf(t, m)
	if e.Code != mcp.CodeInvalidRequest || !strings.Contains(e.Message, "4294967280 bytes exceeds the maximum of 1024") || (m.ID != nil && !m.ID.IsNull()) {
		t.Errorf("oversized frame: id %v, %d %s", m.ID, e.Code, e.Message)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Errorf("the process allocated %d bytes while refusing the frame", grew)
	}
	ctx, cancel := withHang()
	defer cancel()
	if _, err := c.sess.AcceptStream(ctx); err == nil {
		t.Error("the session stayed open")
	}
	c2 := connect(t, srv)
	c2.initialize([]string{"json"})
	if m := c2.call(2, "ping", nil); string(m.Result) != "{}" {
		t.Errorf("new session after the refusal: %s", describe(m))
	}
}

// When the server stops, each session gets $/shutdown and is closed.
func TestServerStopSendsShutdown(t *testing.T) {
	srv, err := New(Config{Listen: "127.0.0.1:0", SandboxRoot: t.TempDir(), ShutdownGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := withHang()
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	c := connect(t, srv)
	c.initialize([]string{"cbor"})
	cancel()
	if m := c.decode(c.next()); m.Method != flow.MethodFlowShutdown {
		t.Errorf("first frame after the stop: %s", describe(m))
	}
	if f := c.next(); f.err == nil {
		t.Errorf("frame after $/shutdown: % x", f.body)
	}
	var se *webtransport.SessionError
	if _, err := c.sess.AcceptStream(c.sess.Context()); !errors.As(err, &se) || se.ErrorCode != 0 {
		t.Errorf("session end: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// A session that never had an execution stream is closed as soon as the
// client sends $/shutdown: nothing is in flight to wait for (the grace,
// guard.Run, is longer than the hang guard).
func TestShutdownWithoutStreamsClosesAtOnce(t *testing.T) {
	c := connect(t, startServer(t, Config{ShutdownGrace: guard.Run}))
	c.initialize([]string{"cbor"})
	if m := c.call(2, "ping", nil); string(m.Result) != "{}" {
		t.Fatalf("ping: %s", describe(m))
	}
	c.notify(flow.MethodFlowShutdown, nil)
	ctx, cancel := withHang()
	defer cancel()
	var se *webtransport.SessionError
	if _, err := c.sess.AcceptStream(ctx); !errors.As(err, &se) || se.ErrorCode != 0 || se.Message != "shutdown" {
		t.Errorf("session end: %v", err)
	}
}
