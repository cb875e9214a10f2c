// Package rawtcp plays hostile servers for tests at the byte level: a
// loopback listener whose connections a test's own function writes by
// hand (half an HTTP answer, a WebSocket frame no library would send),
// every connection held until the test ends.
package rawtcp

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/gateway"
)

// Server is a loopback TCP listener serving one test.
type Server struct {
	l     net.Listener
	mu    sync.Mutex
	conns []net.Conn
	wg    sync.WaitGroup
}

// Serve listens on 127.0.0.1 (a port of the kernel's choice) and runs
// serve on every connection accepted. The test's cleanup closes the
// listener and every connection, then waits for every serve to return:
// serve must return once its connection is closed.
func Serve(t testing.TB, serve func(n int, c net.Conn)) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{l: l}
	s.wg.Add(1)
	go s.accept(serve)
	t.Cleanup(s.close)
	return s
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.l.Addr().String() }

// accept runs serve on each connection, numbered from 0, until the
// listener closes.
func (s *Server) accept(serve func(n int, c net.Conn)) {
	defer s.wg.Done()
	for n := 0; ; n++ {
		c, err := s.l.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns = append(s.conns, c)
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			serve(n, c)
		}()
	}
}

// close closes the listener and every connection and waits for serve.
func (s *Server) close() {
	_ = s.l.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// Hold keeps c open, reading and dropping what comes, until it closes.
func Hold(c net.Conn) {
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}

// ReadRequest reads the head of one HTTP request from c; nil when c
// closed or sent no HTTP request.
func ReadRequest(c net.Conn) *http.Request {
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return nil
	}
	return req
}

// Upgrade reads a WebSocket upgrade request from c and answers it 101
// with accept as the Sec-WebSocket-Accept ("" for the right one) and the
// first subprotocol offered. It reports whether a request came.
func Upgrade(c net.Conn, accept string) bool {
	req := ReadRequest(c)
	if req == nil {
		return false
	}
	if accept == "" {
		accept = gateway.WebSocketAccept(req.Header.Get("Sec-WebSocket-Key"))
	}
	head := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + "\r\n"
	if p := req.Header.Get("Sec-WebSocket-Protocol"); p != "" {
		first, _, _ := strings.Cut(p, ",")
		head += "Sec-WebSocket-Protocol: " + strings.TrimSpace(first) + "\r\n"
	}
	_, err := c.Write([]byte(head + "\r\n"))
	return err == nil
}
