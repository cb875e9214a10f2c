package demo

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// recorder is an Outbound without streams or datagrams that keeps every
// message and emission.
type recorder struct {
	mu    sync.Mutex
	msgs  []*jsonrpc.Message
	logs  []string
	progs []float64
	sent  chan struct{}
}

func newRecorder() *recorder { return &recorder{sent: make(chan struct{}, 1<<16)} }

func (r *recorder) Send(m *jsonrpc.Message) error {
	if _, err := m.EncodeJSON(); err != nil {
		return err
	}
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	select {
	case r.sent <- struct{}{}:
	default:
	}
	return nil
}

func (r *recorder) Emitter(context.Context, CallInfo) Emitter { return recEmitter{r} }

// response returns the response to id, waiting for it.
func (r *recorder) response(t *testing.T, id int64) *jsonrpc.Message {
	t.Helper()
	deadline := time.After(guard.Hang)
	for {
		r.mu.Lock()
		for _, m := range r.msgs {
			if m.IsResponse() && m.ID != nil && m.ID.Key() == jsonrpc.IntID(id).Key() {
				r.mu.Unlock()
				return m
			}
		}
		r.mu.Unlock()
		select {
		case <-r.sent:
		case <-deadline:
			t.Fatalf("no response to %d within %s", id, guard.Hang)
		}
	}
}

// responses counts the responses to id.
func (r *recorder) responses(id jsonrpc.ID) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range r.msgs {
		if m.IsResponse() && m.ID != nil && m.ID.Key() == id.Key() {
			n++
		}
	}
	return n
}

type recEmitter struct{ r *recorder }

func (e recEmitter) Progress(p, _ float64, _ string) error {
	e.r.mu.Lock()
	e.r.progs = append(e.r.progs, p)
	e.r.mu.Unlock()
	return nil
}

func (e recEmitter) Log(level, logger string, data any) error {
	b, _ := json.Marshal(data)
	e.r.mu.Lock()
	e.r.logs = append(e.r.logs, level+" "+logger+" "+string(b))
	e.r.mu.Unlock()
	return nil
}

func (recEmitter) Audio([]byte) error              { return ErrNoDatagrams }
func (recEmitter) OpenStream() (ExecStream, error) { return nil, ErrNoStreams }

// newTestServer builds a server over a temporary sandbox.
func newTestServer(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{SandboxRoot: t.TempDir(), InlineLimit: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// request builds a request message.
func request(t *testing.T, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// callTool runs one tools/call on a fresh connection and returns the answer.
func callTool(t *testing.T, s *Server, name string, args any) *jsonrpc.Message {
	t.Helper()
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, "tools/call", map[string]any{"name": name, "arguments": args}))
	return r.response(t, 1)
}

// rpcCode returns the error code of a response (0 for a result).
func rpcCode(m *jsonrpc.Message) int {
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}
