package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// brokenAnswerBound is how long a test waits for a call whose answer broke
// the envelope; the session's own timeout (brokenAnswerTimeout) is longer,
// so a call that waits for it fails the test as a wait, not as a timeout.
const (
	brokenAnswerBound   = guard.Hang
	brokenAnswerTimeout = guard.Run
)

// wire hands the client what a transport makes of one body on the wire:
// the messages proto can deliver from it, violations included.
func (s *fakeServer) wire(body string) {
	msgs, _, _ := jsonrpc.DecodeJSON([]byte(body))
	for _, m := range msgs {
		s.out <- m
	}
}

// callWithin makes one tools/call that the server answers with answer(id),
// and fails the test if the call is still waiting after brokenAnswerBound.
func callWithin(t *testing.T, opts Options, answer func(s *fakeServer, id jsonrpc.ID)) (*Session, error) {
	t.Helper()
	opts.Timeout = brokenAnswerTimeout
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Kind() == jsonrpc.KindRequest {
			answer(srv, *m.ID)
		}
	}), opts)
	ctx, cancel := context.WithTimeout(context.Background(), brokenAnswerBound)
	defer cancel()
	_, err := s.Call(ctx, "tools/call", map[string]any{"name": "x"})
	if ctx.Err() != nil {
		t.Fatalf("waited %s for the broken answer to fail tools/call; it was still waiting: %v", brokenAnswerBound, err)
	}
	return s, err
}

func TestBrokenAnswerFailsTheCallAtOnce(t *testing.T) {
	const deepN = 100000
	for _, c := range []struct {
		name, body, why string // %[1]s in body and why is the request's id
	}{
		{"result and error", `{"jsonrpc":"2.0","id":%[1]s,"result":{},"error":{"code":1,"message":"x"}}`, `it has both "result" and "error"`},
		{"neither", `{"jsonrpc":"2.0","id":%[1]s}`, `it has neither "result" nor "error"`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":%[1]s,"result":{}}`, `"jsonrpc" is "1.0", want "2.0"`},
		{"jsonrpc missing", `{"id":%[1]s,"result":{}}`, `"jsonrpc" is missing, want "2.0"`},
		{"error null", `{"jsonrpc":"2.0","id":%[1]s,"error":null}`, `"error" is null`},
		{"code with a fraction", `{"jsonrpc":"2.0","id":%[1]s,"error":{"code":-32000.5,"message":"x"}}`, `"error"."code" is -32000.5, not an integer`},
		{"code a string", `{"jsonrpc":"2.0","id":%[1]s,"error":{"code":"abc","message":"x"}}`, `"error"."code" is "abc", not an integer`},
		{"trailing garbage", `{"jsonrpc":"2.0","id":%[1]s,"result":{}}xyz`, `it has data after the object, at byte offset 36: xyz`},
		{"duplicate id key", `{"jsonrpc":"2.0","id":%[1]s,"id":%[1]s,"result":{}}`, `it has "id" twice`},
		{"duplicate id, the second ours", `{"jsonrpc":"2.0","id":999,"id":%[1]s,"result":{}}`, `it has "id" twice`},
		{"duplicate result", `{"jsonrpc":"2.0","id":%[1]s,"result":{},"result":{}}`, `it has "result" twice`},
		{"string twin of the id", `{"jsonrpc":"2.0","id":"%[1]s","result":{}}`, `it carries the id "%[1]s" where the request's id is %[1]s`},
		{"nested 100k deep", `{"jsonrpc":"2.0","id":%[1]s,"result":` + strings.Repeat("[", deepN) + strings.Repeat("]", deepN) + `}`, `it is nested deeper than 10000 levels`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sent jsonrpc.ID
			_, err := callWithin(t, Options{}, func(s *fakeServer, id jsonrpc.ID) {
				sent = id
				s.wire(strings.ReplaceAll(c.body, "%[1]s", id.String()))
			})
			want := fmt.Sprintf("protocol violation: the answer to tools/call (id %s) is unusable: %s", sent, strings.ReplaceAll(c.why, "%[1]s", sent.String()))
			var pe *ProtocolError
			if !errors.As(err, &pe) || err.Error() != want {
				t.Fatalf("err %v\nwant %s", err, want)
			}
		})
	}
}

func TestCutAnswerFailsTheCallAtOnce(t *testing.T) {
	cause := errors.New("server wrote a line of 20000 bytes, over the 4096-byte limit; only its head is kept")
	_, err := callWithin(t, Options{}, func(s *fakeServer, id jsonrpc.ID) {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s`, id, strings.Repeat("x", 4000))
		s.out <- jsonrpc.NewViolation([]byte(head), cause)
	})
	var pe *ProtocolError
	if !errors.As(err, &pe) || !errors.Is(err, cause) || !strings.HasPrefix(err.Error(), "protocol violation: the answer to tools/call (id 3) is unusable: server wrote a line") {
		t.Fatalf("err %v, want the cut line named", err)
	}
}

func TestBrokenRequestFromServerFailsNoCall(t *testing.T) {
	s, err := callWithin(t, Options{}, func(s *fakeServer, id jsonrpc.ID) {
		s.wire(fmt.Sprintf(`{"jsonrpc":"1.0","id":%s,"method":"ping"}`, id)) // the server's own request, same id
		s.result(id, map[string]any{"ok": true})
	})
	if err != nil {
		t.Fatalf("a broken request from the server failed the call: %v", err)
	}
	if n := s.InFlight(); n != 0 {
		t.Fatalf("%d requests in flight", n)
	}
}

func TestStrayAnswersAreReported(t *testing.T) {
	var (
		mu     sync.Mutex
		strays []string
	)
	opts := Options{OnStrayAnswer: func(a StrayAnswer) {
		mu.Lock()
		defer mu.Unlock()
		strays = append(strays, a.String())
	}}
	s, err := callWithin(t, opts, func(s *fakeServer, id jsonrpc.ID) {
		s.result(id, map[string]any{"ok": true})
		s.result(id, map[string]any{"again": true})
		s.result(jsonrpc.IntID(424242), map[string]any{})
		s.result(jsonrpc.StringID("x\x1b]0;t\x07"), map[string]any{})
		s.send(jsonrpc.NewErrorResponse(jsonrpc.ID{}, mcp.CodeParseError, "Parse error", nil))
		s.result(jsonrpc.IntID(-1), map[string]any{}) // fences what came before
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"the server answered id 3 a second time; it was ignored",
		"the server answered id 424242, which mcpscope never sent; it was ignored",
		`the server answered id "x\x1b]0;t\a", which mcpscope never sent; it was ignored`,
		`the server sent an answer with id null, which names no request: error -32700 "Parse error"; it was ignored`,
		"the server answered id -1, which mcpscope never sent; it was ignored",
	}
	deadline := time.Now().Add(brokenAnswerBound)
	for {
		mu.Lock()
		got := append([]string(nil), strays...)
		mu.Unlock()
		if len(got) >= len(want) || time.Now().After(deadline) {
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("stray answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = s
}

func TestInitializeResultOfTheWrongShape(t *testing.T) {
	for _, c := range []struct{ result, want string }{
		{`42`, "protocol violation: the initialize result is not an object: 42"},
		{`[1,"a"]`, `protocol violation: the initialize result is not an object: [1,"a"]`},
		{`{"protocolVersion":5}`, "protocol violation: the initialize result's protocolVersion is a number, not a string"},
		{`{"protocolVersion":"2025-11-25","serverInfo":{"name":[]}}`, "protocol violation: the initialize result's serverInfo.name is an array, not a string"},
	} {
		t.Run(c.result, func(t *testing.T) {
			ft := newFake(t, func(srv *fakeServer) {
				for m, ok := srv.next(); ok; m, ok = srv.next() {
					switch m.Method {
					case mcp.MethodDiscover:
						srv.fail(*m.ID, mcp.CodeMethodNotFound, "method not found")
					case mcp.MethodInitialize:
						srv.rawResult(*m.ID, c.result)
					}
				}
			})
			err := New(ft, Options{}).Connect(testCtx(t))
			var pe *ProtocolError
			if !errors.As(err, &pe) || err.Error() != c.want {
				t.Fatalf("Connect: %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestLateAnswerToAGivenUpRequestIsNoStray(t *testing.T) {
	strays := make(chan StrayAnswer, 4)
	var held jsonrpc.ID
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		switch {
		case m.Method == "tools/call":
			held = *m.ID // answered only once the client gave up
		case m.Method == mcp.MethodNotifyCancelled:
			srv.result(held, map[string]any{"late": true})
		case m.Kind() == jsonrpc.KindRequest:
			srv.result(*m.ID, map[string]any{})
		}
	}), Options{OnStrayAnswer: func(a StrayAnswer) { strays <- a }})
	var te *TimeoutError
	if _, err := s.Call(testCtx(t), "tools/call", nil, WithTimeout(50*time.Millisecond)); !errors.As(err, &te) {
		t.Fatalf("err %v, want a timeout", err)
	}
	// The late answer comes before the answer to this ping.
	if _, err := s.Call(testCtx(t), "ping", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-strays:
		t.Fatalf("a late answer to a request given up on was reported: %s", a)
	default:
	}
}
