package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// hangGuard bounds every wait in these tests; it only fires on a hang.
const hangGuard = guard.Hang

// fakeServer is the scripted peer behind a fakeTransport. Its script runs
// on its own goroutine, reads what the client sends from in and answers
// through the helper methods, which reach the client in order.
type fakeServer struct {
	t    testing.TB
	in   chan *jsonrpc.Message // client → server
	out  chan *jsonrpc.Message // server → client, pumped into deliver
	gone <-chan struct{}       // closed when the connection ends
	deaf chan struct{}         // closed when the server stops reading: sends block
	slow time.Duration         // how long each send takes (guarded by mu)
	once sync.Once

	mu      sync.Mutex
	sent    []*jsonrpc.Message // everything the client sent, in order
	blocked []string           // the methods of the sends a deaf server never took
}

// fakeTransport is an in-memory Transport. Messages cross it as JSON, as on
// a real wire.
type fakeTransport struct {
	srv     *fakeServer
	script  func(*fakeServer)
	done    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	err     error
	started bool
	dead    bool
}

var errFakeDied = errors.New("server exited with status 3; stderr: boom")

func newFake(t testing.TB, script func(*fakeServer)) *fakeTransport {
	done := make(chan struct{})
	return &fakeTransport{
		srv: &fakeServer{t: t, in: make(chan *jsonrpc.Message, 4096), out: make(chan *jsonrpc.Message, 4096), gone: done,
			deaf: make(chan struct{})},
		script: script,
		done:   done,
	}
}

func (f *fakeTransport) Start(ctx context.Context, deliver func(*jsonrpc.Message)) error {
	f.mu.Lock()
	f.started = true
	f.mu.Unlock()
	go func() {
		for {
			select {
			case m := <-f.srv.out:
				if m == nil { // the script killed the server
					f.end(errFakeDied)
					return
				}
				deliver(m)
			case <-f.done:
				return
			}
		}
	}()
	go f.script(f.srv)
	return nil
}

func (f *fakeTransport) Send(ctx context.Context, m *jsonrpc.Message) error {
	f.mu.Lock()
	dead := f.dead
	f.mu.Unlock()
	if dead {
		return errors.New("write to a closed pipe")
	}
	select {
	case <-f.srv.deaf: // nothing is taken until ctx ends
		f.srv.mu.Lock()
		f.srv.blocked = append(f.srv.blocked, m.Method)
		f.srv.mu.Unlock()
		<-ctx.Done()
		return fmt.Errorf("the fake server stopped reading: %w", ctx.Err())
	default:
	}
	f.srv.mu.Lock()
	slow := f.srv.slow
	f.srv.mu.Unlock()
	time.Sleep(slow) // a server that reads slowly, but reads
	wire := roundTripJSON(f.srv.t, m)
	f.srv.mu.Lock()
	f.srv.sent = append(f.srv.sent, wire)
	f.srv.mu.Unlock()
	select {
	case f.srv.in <- wire:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fakeTransport) end(err error) {
	f.once.Do(func() {
		f.mu.Lock()
		f.err, f.dead = err, true
		f.mu.Unlock()
		close(f.done)
	})
}

func (f *fakeTransport) Close() error          { f.end(nil); return nil }
func (f *fakeTransport) Done() <-chan struct{} { return f.done }
func (f *fakeTransport) Describe() Traits      { return Traits{} }
func (f *fakeTransport) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

func roundTripJSON(t testing.TB, m *jsonrpc.Message) *jsonrpc.Message {
	b, err := m.EncodeJSON()
	if err != nil {
		t.Errorf("encoding %v: %v", m, err)
		return m
	}
	out, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		t.Errorf("decoding %s: %v", b, err)
		return m
	}
	return out
}

// next returns the next message the client sent; ok is false once the
// connection has gone.
func (s *fakeServer) next() (*jsonrpc.Message, bool) {
	select {
	case m := <-s.in:
		return m, true
	case <-s.gone:
		return nil, false
	case <-time.After(hangGuard):
		s.t.Errorf("fake server: nothing arrived within %s", hangGuard)
		return nil, false
	}
}

func (s *fakeServer) send(m *jsonrpc.Message) { s.out <- roundTripJSON(s.t, m) }

func (s *fakeServer) result(id jsonrpc.ID, v any) {
	m, err := jsonrpc.NewResult(id, v)
	if err != nil {
		s.t.Errorf("result: %v", err)
		return
	}
	s.send(m)
}

func (s *fakeServer) rawResult(id jsonrpc.ID, raw string) {
	s.send(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Result: json.RawMessage(raw)})
}

func (s *fakeServer) fail(id jsonrpc.ID, code int, msg string) {
	s.send(jsonrpc.NewErrorResponse(id, code, msg, nil))
}

func (s *fakeServer) notify(method string, params any) {
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		s.t.Errorf("notify: %v", err)
		return
	}
	s.send(m)
}

func (s *fakeServer) request(id jsonrpc.ID, method string, params any) {
	m, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		s.t.Errorf("request: %v", err)
		return
	}
	s.send(m)
}

// stopReading makes every later Send block until its context ends, as a
// server that stopped reading its input.
func (s *fakeServer) stopReading() { s.once.Do(func() { close(s.deaf) }) }

// kill makes the transport die after everything sent so far is delivered.
func (s *fakeServer) kill() { s.out <- nil }

// blockedSends returns the methods of the sends a deaf server never took.
func (s *fakeServer) blockedSends() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.blocked...)
}

// sentMethods returns every message the client sent, in order.
func (s *fakeServer) sentMessages() []*jsonrpc.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*jsonrpc.Message(nil), s.sent...)
}

// handshake answers the client's opening: server/discover gets -32601 (a
// legacy server) unless modern, initialize gets version. It returns once
// the handshake is over (after notifications/initialized, or after discover
// when modern); ok is false if the client went first.
func (s *fakeServer) handshake(modern bool, version string) bool {
	for {
		m, ok := s.next()
		if !ok {
			return false
		}
		switch {
		case m.Method == mcp.MethodDiscover && modern:
			s.result(*m.ID, discoverResult(mcp.Modern))
			return true
		case m.Method == mcp.MethodDiscover:
			s.fail(*m.ID, mcp.CodeMethodNotFound, "method not found")
		case m.Method == mcp.MethodInitialize:
			s.result(*m.ID, map[string]any{
				"protocolVersion": version,
				"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
				"serverInfo":      map[string]any{"name": "fake", "version": "9"},
				"instructions":    "be kind",
			})
		case m.Method == mcp.MethodNotifyInitialized:
			return true
		default:
			s.t.Errorf("fake server: %s arrived during the handshake", m.Method)
		}
	}
}

func discoverResult(versions ...string) map[string]any {
	return map[string]any{
		"resultType":        "complete",
		"supportedVersions": versions,
		"capabilities":      map[string]any{"tools": map[string]any{}},
		"instructions":      "modern instructions",
		"_meta":             map[string]any{mcp.MetaServerInfo: map[string]any{"name": "modern-fake", "version": "2"}},
	}
}

// serve runs the handshake then hands every later message to fn until the
// client goes.
func serve(modern bool, fn func(s *fakeServer, m *jsonrpc.Message)) func(*fakeServer) {
	return func(s *fakeServer) {
		if !s.handshake(modern, mcp.LatestLegacy) {
			return
		}
		for m, ok := s.next(); ok; m, ok = s.next() {
			fn(s, m)
		}
	}
}

// connect builds a session over a fake running script and connects it.
func connect(t *testing.T, script func(*fakeServer), opts Options) (*Session, *fakeTransport) {
	t.Helper()
	ft := newFake(t, script)
	s := New(ft, opts)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, ft
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}
