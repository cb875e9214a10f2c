package mcphttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// toolsSink keeps the frames a transport reports.
type toolsSink struct {
	mu     sync.Mutex
	frames []*capture.Frame
}

func (s *toolsSink) Append(f *capture.Frame) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = append(s.frames, f)
	return uint64(len(s.frames))
}

// texts are the raw bytes of every frame, in order.
func (s *toolsSink) texts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.frames))
	for i, f := range s.frames {
		out[i] = string(f.Raw)
	}
	return out
}

// toolsSession connects the engine over seed 004's dialect to h.
func toolsSession(t *testing.T, h http.HandlerFunc, opts client.Options) (*client.Session, *toolsSink) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	sink := &toolsSink{}
	tr, err := New(Config{URL: srv.URL + "/tools", Mode: ModeTools, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, opts)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, sink
}

// callEcho calls the tool echo and returns its result or error.
func toolsCallEcho(t *testing.T, s *client.Session) (map[string]any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	raw, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}})
	if err != nil {
		return nil, err
	}
	var res map[string]any
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return res, nil
}

// requestID reads the id of the POSTed request.
func toolsRequestID(t *testing.T, r *http.Request) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, &m); err != nil || m.Method != mcp.MethodToolsCall {
		t.Errorf("the first POST is %s (%v), want tools/call with no handshake", b, err)
	}
	return string(m.ID)
}

// The first message is the tools/call itself; a 200 JSON body answers it.
func TestToolsJSONAnswer(t *testing.T) {
	s, _ := toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		id := toolsRequestID(t, r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"hi"}]}}`, id)
	}, client.Options{})
	res, err := toolsCallEcho(t, s)
	if err != nil || fmt.Sprint(res["content"]) != "[map[text:hi type:text]]" {
		t.Fatalf("result %v, err %v", res, err)
	}
}

// An SSE answer's result fragments are frames of their own, heartbeats
// too, and a complete event without content takes the fragments' content
// in order.
func TestToolsSSEFragmentsReassembled(t *testing.T) {
	s, sink := toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		id := toolsRequestID(t, r)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: result\ndata: {\"content\":[{\"type\":\"text\",\"text\":\"a\"}]}\n\n")
		fmt.Fprint(w, ": heartbeat\n\n")
		fmt.Fprint(w, "event: result\ndata: {\"content\":[{\"type\":\"text\",\"text\":\"b\"}]}\n\n")
		fmt.Fprintf(w, "event: complete\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", id)
	}, client.Options{})
	res, err := toolsCallEcho(t, s)
	if err != nil || fmt.Sprint(res["content"]) != "[map[text:a type:text] map[text:b type:text]]" {
		t.Fatalf("result %v, err %v", res, err)
	}
	var heartbeat, fragments bool
	for _, txt := range sink.texts() {
		heartbeat = heartbeat || txt == ": heartbeat\n\n"
		fragments = fragments || strings.HasPrefix(txt, "event: result\n")
	}
	if !heartbeat || !fragments {
		t.Fatalf("frames %q lack the heartbeat or a fragment", sink.texts())
	}
}

// An error event ends the call with the server's error.
func TestToolsSSEErrorEvent(t *testing.T) {
	s, _ := toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		toolsRequestID(t, r)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: result\ndata: {\"content\":[]}\n\n")
		fmt.Fprint(w, "event: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32602,\"message\":\"bad text\"}}\n\n")
	}, client.Options{})
	_, err := toolsCallEcho(t, s)
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc.Err.Code != -32602 {
		t.Fatalf("err %v, want the server's -32602", err)
	}
}

// A 4xx or 5xx whose body is no error envelope becomes the seed's
// synthetic error carrying the HTTP status; one with an envelope is the
// server's own error.
func TestToolsHTTPStatusErrors(t *testing.T) {
	s, _ := toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		toolsRequestID(t, r)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, "<html>down</html>")
	}, client.Options{})
	_, err := toolsCallEcho(t, s)
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc.Err.Code != syntheticCode || !strings.Contains(rpc.Err.Message, "503") || !strings.Contains(string(rpc.Err.Data), `"httpStatus":503`) {
		t.Fatalf("err %v, want a synthetic error with the status", err)
	}
	s, _ = toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		toolsRequestID(t, r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"unknown tool"}}`)
	}, client.Options{})
	if _, err := toolsCallEcho(t, s); !errors.As(err, &rpc) || rpc.Err.Code != -32602 {
		t.Fatalf("err %v, want the server's -32602", err)
	}
}

// A stream that ends before its complete event fails the call at once.
func TestToolsStreamEndsBeforeComplete(t *testing.T) {
	s, _ := toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		toolsRequestID(t, r)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: result\ndata: {\"content\":[]}\n\n")
	}, client.Options{Timeout: guard.Run})
	_, err := toolsCallEcho(t, s)
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || !strings.Contains(err.Error(), "before its complete event, after 1 result fragments") {
		t.Fatalf("err %v, want an exchange error naming the missing complete event", err)
	}
}

// The local timeout aborts the POST: the server sees its request end.
func TestToolsTimeoutAbortsPost(t *testing.T) {
	aborted := make(chan struct{})
	s, _ := toolsSession(t, func(w http.ResponseWriter, r *http.Request) {
		toolsRequestID(t, r)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(aborted)
	}, client.Options{Timeout: 200 * time.Millisecond})
	_, err := toolsCallEcho(t, s)
	var te *client.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err %v, want a timeout", err)
	}
	select {
	case <-aborted:
	case <-time.After(hangGuard):
		t.Fatalf("the server's request did not end within %s after the timeout", hangGuard)
	}
}
