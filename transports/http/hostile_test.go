package mcphttp

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sessionOpts are engine options of a 2025-11-25 session with the given
// limits.
func sessionOpts(timeout, maxTime time.Duration) client.Options {
	return client.Options{ProtocolVersion: mcp.ProtocolVersion20251125, Timeout: timeout, HardTimeout: maxTime}
}

// A body that never ends, SSE heartbeats or JSON whitespace trickling and
// no answer, ends by the request's max time; the body is let go and the
// session lives on.
func TestBodyThatNeverEndsEndsByMaxTime(t *testing.T) {
	for contentType, drip := range map[string]string{"text/event-stream": ": heartbeat\n\n", "application/json": " "} {
		t.Run(contentType, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t)
			done := released(f, mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
				w.Header().Set("Content-Type", contentType)
				w.WriteHeader(http.StatusOK)
				tick := time.NewTicker(5 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-tick.C:
						_, _ = w.Write([]byte(drip))
						w.(http.Flusher).Flush()
					case <-r.Context().Done():
						return
					case <-f.stop:
						return
					}
				}
			})
			s := connect(t, f.URL(), func(c *Config) { c.CancelGrace = 10 * time.Millisecond }, sessionOpts(guard.Run, 300*time.Millisecond))
			_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "forever"})
			var te *client.TimeoutError
			if !errors.As(err, &te) || !te.MaxTime {
				t.Fatalf("err = %v, want the max time", err)
			}
			awaitEnd(t, done, "the never-ending body")
			if _, err := s.call(mcp.MethodPing, nil); err != nil {
				t.Fatalf("ping after: %v", err)
			}
		})
	}
}

// A 2 GB event, generated as it is sent, fails the request once it passes
// MaxFrameSize, with the limit named, and memory stays bounded.
func TestTwoGigabyteEventFailsAtTheLimit(t *testing.T) {
	noLeaks(t)
	const size = 2 << 30
	const limit = 4 << 20
	f := newFake(t)
	var sent atomic.Int64
	done := released(f, mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put("id: 1\ndata: ")
		chunk := []byte(strings.Repeat("a", 64<<10))
		for n := 0; n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
		}
		put("\n\n")
	})
	heap := flowtest.SampleHeap(10 * time.Millisecond)
	s := connect(t, f.URL(), func(c *Config) { c.MaxFrameSize = limit }, sessionOpts(guard.Run, guard.Run))
	_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "huge"})
	peak := heap.Stop()
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || !errors.Is(err, sse.ErrLimit) || !strings.Contains(err.Error(), fmt.Sprint(limit)) {
		t.Fatalf("err = %v, want the SSE limit", err)
	}
	awaitEnd(t, done, "the 2 GB event")
	t.Logf("the server sent %d MiB of the 2 GiB event; peak HeapInuse %.1f MiB", sent.Load()>>20, float64(peak)/(1<<20))
	if peak > 128<<20 {
		t.Errorf("peak HeapInuse %.1f MiB", float64(peak)/(1<<20))
	}
	if sent.Load() >= size {
		t.Errorf("the whole event was read")
	}
}

// A server that takes the request and never sends a response head ends
// the request by its idle limit; the POST is let go.
func TestServerHoldingTheResponseHeadEndsByTimeout(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	done := released(f, mcp.MethodToolsCall, func(_ http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) { f.hold(r) })
	s := connect(t, f.URL(), func(c *Config) { c.CancelGrace = 10 * time.Millisecond }, sessionOpts(300*time.Millisecond, guard.Run))
	_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "stuck"})
	var te *client.TimeoutError
	if !errors.As(err, &te) || te.MaxTime || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Fatalf("err = %v", err)
	}
	awaitEnd(t, done, "the held POST")
}

// A listener that accepts connections and never says a byte ends the
// handshake by its limit, with a clear error.
func TestSilentListenerEndsTheHandshakeByTimeout(t *testing.T) {
	noLeaks(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		for c := range accepted {
			_ = c.Close()
		}
	})
	_, err = dial(t, "http://"+ln.Addr().String()+"/mcp", nil, sessionOpts(300*time.Millisecond, guard.Run))
	var te *client.TimeoutError
	if !errors.As(err, &te) || te.Method != mcp.MethodInitialize {
		t.Fatalf("Connect = %v", err)
	}
}

// A JSON answer over MaxFrameSize fails the request as a violation,
// whatever id its head names.
func TestJSONAnswerOverTheLimit(t *testing.T) {
	for name, head := range map[string]string{
		"its id":     `{"jsonrpc":"2.0","id":%d,"result":{"pad":"`,
		"another id": `{"jsonrpc":"2.0","id":999,"result":{"pad":"`,
		"no id":      `{"jsonrpc":"2.0","result":{"pad":"`,
	} {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t)
			f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
				id, _ := m.ID.Int()
				h := head
				if strings.Contains(h, "%d") {
					h = fmt.Sprintf(head, id)
				}
				writeJSON(w, http.StatusOK, h+strings.Repeat("x", 8<<10)+`"}}`)
			})
			s := connect(t, f.URL(), func(c *Config) { c.MaxFrameSize = 1 << 10 }, sessionOpts(hangGuard, guard.Run))
			_, err := s.call(mcp.MethodToolsList, nil)
			var big *flow.FrameTooLargeError
			if !errors.As(err, &big) || big.Max != 1<<10 {
				t.Fatalf("err = %v, want the frame over the limit", err)
			}
		})
	}
}

// Garbage on an SSE answer is captured with its errors and fails the
// request when the stream ends without an answer.
func TestGarbageSSE(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put("\x00\xff\xfe garbage\r\n\r\n")
		put("data: {not json\n\n")
		put("data: [1,2,3]\n\n")
		put("event: surprise\ndata: {}\n\n")
		put("retry: -5\nid: a\x00b\ndata: \"str\"\n\n")
		put("data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}") // cut: no blank line
	})
	s := connect(t, f.URL(), nil, sessionOpts(hangGuard, guard.Run))
	_, err := s.call(mcp.MethodToolsList, nil)
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || !strings.Contains(err.Error(), "ended before the answer") {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping after: %v", err)
	}
}

// An answer nested deeper than the decoder allows fails the request with
// a clear error, without blowing the stack.
func TestDeeplyNestedJSONInAnEvent(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	const depth = 200000
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		id, _ := m.ID.Int()
		put := openSSE(w)
		put(fmt.Sprintf(`data: {"jsonrpc":"2.0","id":%d,"result":{"x":%s%s}}`+"\n\n", id, strings.Repeat("[", depth), strings.Repeat("]", depth)))
	})
	s := connect(t, f.URL(), nil, sessionOpts(hangGuard, guard.Run))
	_, err := s.call(mcp.MethodToolsList, nil)
	if err == nil || !errors.Is(err, jsonrpc.ErrNestedTooDeep) {
		t.Fatalf("err = %v", err)
	}
}

// A 2 GB event that arrives slowly under a frame limit it would fit in is
// ended by the request's max time, not read to its end: the error names
// the max time, the POST is let go, and memory holds only what came.
func TestTwoGigabyteEventEndsByMaxTime(t *testing.T) {
	noLeaks(t)
	const size = 2 << 30
	f := newFake(t)
	var sent atomic.Int64
	done := released(f, mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put("id: 1\ndata: ")
		chunk := []byte(strings.Repeat("a", 64<<10))
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for n := 0; n < size; n += len(chunk) {
			select {
			case <-tick.C:
			case <-r.Context().Done():
				return
			case <-f.stop:
				return
			}
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			sent.Add(int64(len(chunk)))
		}
		put("\n\n")
	})
	heap := flowtest.SampleHeap(10 * time.Millisecond)
	s := connect(t, f.URL(), func(c *Config) {
		c.MaxFrameSize = size + 1<<20
		c.CancelGrace = 10 * time.Millisecond
	}, sessionOpts(guard.Run, 400*time.Millisecond))
	_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "huge"})
	peak := heap.Stop()
	var te *client.TimeoutError
	if !errors.As(err, &te) || !te.MaxTime {
		t.Fatalf("err = %v, want the max time", err)
	}
	awaitEnd(t, done, "the slow 2 GB event")
	t.Logf("the server sent %d MiB of the 2 GiB event before the max time; peak HeapInuse %.1f MiB", sent.Load()>>20, float64(peak)/(1<<20))
	if sent.Load() >= size {
		t.Errorf("the whole event was read")
	}
	if peak > uint64(sent.Load())*2+64<<20 {
		t.Errorf("peak HeapInuse %.1f MiB for %d MiB received", float64(peak)/(1<<20), sent.Load()>>20)
	}
}

// A server that sends the answer's head and part of an event, then holds
// the connection without another byte, ends the request by its idle
// limit; the POST is let go.
func TestServerSilentMidEventEndsByTimeout(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	done := released(f, mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put("id: 1\ndata: {\"jsonrpc\":\"2.0\",")
		f.hold(r)
	})
	s := connect(t, f.URL(), func(c *Config) { c.CancelGrace = 10 * time.Millisecond }, sessionOpts(time.Second, guard.Run))
	_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "stalls"})
	var te *client.TimeoutError
	if !errors.As(err, &te) || te.MaxTime || !strings.Contains(err.Error(), "timed out after 1s") {
		t.Fatalf("err = %v, want the idle limit", err)
	}
	awaitEnd(t, done, "the silent event")
}
