package mcphttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A 400 whose body is a JSON-RPC error with id null is the server's
// answer to the request: an RPC error, not a transport failure.
func TestBadRequestWithJSONRPCErrorIsTheAnswer(t *testing.T) {
	f := newFake(t)
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		writeJSON(w, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"bad arguments"}}`)
	})
	_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "x"})
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc.Err.Code != -32602 {
		t.Fatalf("err = %v (%T), want the RPC error -32602", err, err)
	}
}

// A status with no JSON-RPC body fails the request at once with the
// status: 408, 429, 502, 503 and 504 worded as transient (with
// Retry-After), another 5xx as the server failing, a status HTTP does not
// define (999) as such, 401 and 403 with the hint about credentials.
func TestStatusWithoutAnswerFailsTheRequest(t *testing.T) {
	cases := []struct {
		status     int
		retryAfter string
		want       []string
	}{
		{http.StatusInternalServerError, "", []string{"HTTP 500", "the server failed", "<h1>oops</h1>"}},
		{http.StatusTooManyRequests, "7", []string{"HTTP 429", "transient", "Retry-After 7"}},
		{http.StatusBadGateway, "", []string{"HTTP 502", "transient"}},
		{http.StatusServiceUnavailable, "", []string{"HTTP 503", "transient"}},
		{http.StatusRequestTimeout, "", []string{"HTTP 408", "transient"}},
		{999, "", []string{"HTTP 999", "not a status HTTP defines"}},
		{http.StatusUnauthorized, "", []string{"HTTP 401", "--header 'Authorization: Bearer"}},
		{http.StatusForbidden, "", []string{"HTTP 403", "credentials"}},
	}
	for _, c := range cases {
		t.Run(strconv.Itoa(c.status), func(t *testing.T) {
			f := newFake(t)
			f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
				if c.retryAfter != "" {
					w.Header().Set("Retry-After", c.retryAfter)
				}
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte("<h1>oops</h1>\n<p>more</p>"))
			})
			r := newRig(t, f.URL(), nil)
			r.send(t, request(t, 3, mcp.MethodToolsList, nil))
			m := r.in.next(t)
			xe := exchangeError(t, m)
			if m.ID.Key() != jsonrpc.IntID(3).Key() || xe.Status != c.status {
				t.Errorf("id %s, status %d", m.ID, xe.Status)
			}
			for _, w := range c.want {
				if !strings.Contains(xe.Error(), w) {
					t.Errorf("error %q lacks %q", xe, w)
				}
			}
			transient := c.status == 408 || c.status == 429 || c.status == 502 || c.status == 503 || c.status == 504
			if strings.Contains(xe.Error(), "transient") != transient {
				t.Errorf("error %q is worded transient wrongly", xe)
			}
		})
	}
}

// Through the engine, such a failure ends the call at once with an error
// that unwraps to the ExchangeError and keeps the session open.
func TestStatusFailureThroughTheEngine(t *testing.T) {
	f := newFake(t)
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	_, err := s.call(mcp.MethodToolsList, nil)
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || xe.Status != http.StatusServiceUnavailable || !strings.Contains(err.Error(), "tools/list") {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping after the failure: %v", err)
	}
}

// An answer of another media type fails the request at once.
func TestWrongContentTypeFailsTheRequest(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(resultOf(m, "{}")))
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsList, nil))
	xe := exchangeError(t, r.in.next(t))
	if !strings.Contains(xe.Error(), `"text/plain"`) || !strings.Contains(xe.Error(), "neither application/json nor text/event-stream") {
		t.Errorf("error = %v", xe)
	}
}

// Content types are read without their parameters and case.
func TestContentTypeWithParameters(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		w.Header().Set("Content-Type", "Application/JSON; charset=utf-8")
		_, _ = w.Write([]byte(resultOf(m, `{"tools":[]}`)))
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsList, nil))
	if m := r.in.next(t); !m.IsResponse() {
		t.Fatalf("delivered %s", m.Raw)
	}
}

// A JSON answer that holds no response with the request's id fails it.
func TestJSONAnswerWithoutTheResponseFails(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsList, nil))
	if m := r.in.next(t); m.Method != mcp.MethodNotifyMessage {
		t.Fatalf("first delivery %s", m.Raw)
	}
	if xe := exchangeError(t, r.in.next(t)); !strings.Contains(xe.Error(), "holds no response with its id") {
		t.Errorf("error = %v", xe)
	}
}

// A connection refused before the POST went out is Send's error.
func TestConnectionRefusedIsSendsError(t *testing.T) {
	f := newFake(t)
	url := f.URL()
	f.srv.Close()
	r := newRig(t, url, nil)
	err := r.tr.Send(t.Context(), request(t, 1, mcp.MethodPing, nil))
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("Send = %v", err)
	}
}

// A server that refuses a large request before reading it all answers
// it: Send returns, and the refusal fails the request.
func TestEarlyRefusalOfALargeRequest(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on("broken", func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) { // the fake reads 1 MiB of it
		w.Header().Set("Connection", "close")
		http.Error(w, "too large", http.StatusRequestEntityTooLarge)
	})
	r := newRig(t, f.URL(), nil)
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	big := request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "x", "arguments": map[string]any{"blob": strings.Repeat("z", 16<<20)}})
	err := r.tr.Send(ctx, big)
	if err != nil && ctx.Err() != nil {
		t.Fatalf("Send waited %s for a body the server no longer reads: %v", hangGuard, err)
	}
	if err == nil {
		if xe := exchangeError(t, r.in.next(t)); xe.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d", xe.Status)
		}
	}
}

// An answer in a Content-Encoding mcpscope did not ask for fails the
// request naming the encoding, as a 200 or as a refusal, and a GET stream
// in one names it too.
func TestUnaskedContentEncodingIsNamed(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write([]byte(`{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}`))
	_ = zw.Close()
	for _, status := range []int{http.StatusOK, http.StatusBadRequest} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			f := newFake(t)
			f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Encoding", "gzip")
				w.WriteHeader(status)
				_, _ = w.Write(zipped.Bytes())
			})
			r := newRig(t, f.URL(), nil)
			r.send(t, request(t, 3, mcp.MethodToolsList, nil))
			xe := exchangeError(t, r.in.next(t))
			if want := "Content-Encoding: gzip, which mcpscope did not ask for"; !strings.Contains(xe.Error(), want) {
				t.Errorf("error %q does not say %q", xe, want)
			}
		})
	}
}
