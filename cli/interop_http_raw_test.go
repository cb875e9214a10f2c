package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Raw HTTP for the tests of interop_http_peers_test.go: they prove that the
// HTTP peers start, serve and stop, and record how each one answers on the
// wire, without going through mcpscope's own HTTP transport.

// rawBound bounds every raw exchange with a peer.
const rawBound = guard.Hang

// rawClient returns an HTTP client of the test's own (no proxy, no
// connection shared with another test) whose idle connections close with it.
func rawClient(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{Proxy: nil}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// rawDo sends one request with body (none if empty) and the headers given as
// name, value pairs; the body of the response closes with the test or when
// rawBound passes.
func rawDo(t *testing.T, c *http.Client, method, url, body string, header ...string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), rawBound)
	t.Cleanup(cancel)
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// rawPost POSTs one JSON-RPC message the way Streamable HTTP wants it.
func rawPost(t *testing.T, c *http.Client, url, msg string, header ...string) *http.Response {
	t.Helper()
	return rawDo(t, c, http.MethodPost, url, msg, append([]string{"Accept", "application/json, text/event-stream"}, header...)...)
}

// mediaType returns the response's media type without parameters.
func mediaType(res *http.Response) string {
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	return mt
}

// sseEvent is one event of a text/event-stream, fields as sent.
type sseEvent struct {
	event, id, retry, data string
	hasID                  bool
}

// sseReader reads the events of one stream. It is the least the tests need
// (LF or CRLF lines, comments skipped, data lines joined), not mcpscope's
// parser.
type sseReader struct {
	sc    *bufio.Scanner
	lines sseLines
}

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	return &sseReader{sc: sc}
}

// next returns the next event, io.EOF at the end of the stream.
func (r *sseReader) next() (sseEvent, error) {
	for r.sc.Scan() {
		if ev, ok := r.lines.take(r.sc.Text()); ok {
			return ev, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return sseEvent{}, err
	}
	return sseEvent{}, io.EOF
}

// sseLines builds events from the lines of a stream, one line at a time.
type sseLines struct {
	ev   sseEvent
	data []string
	seen bool // a field of the event under way was read
}

// take reads one line (without its LF) and returns the event a blank line
// ends, if it ends one.
func (s *sseLines) take(line string) (sseEvent, bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		if !s.seen {
			return sseEvent{}, false
		}
		ev := s.ev
		ev.data = strings.Join(s.data, "\n")
		*s = sseLines{}
		return ev, true
	}
	if strings.HasPrefix(line, ":") {
		return sseEvent{}, false
	}
	s.seen = true
	name, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch name {
	case "event":
		s.ev.event = value
	case "id":
		s.ev.id, s.ev.hasID = value, true
	case "retry":
		s.ev.retry = value
	case "data":
		s.data = append(s.data, value)
	}
	return sseEvent{}, false
}

// rpcAnswer reads the JSON-RPC response a POST brought, from a JSON body or
// from the first SSE event that carries one (as a wireMsg, read from the
// server), and returns the SSE events read up to it.
func rpcAnswer(t *testing.T, res *http.Response) (wireMsg, []sseEvent) {
	t.Helper()
	var m wireMsg
	if mediaType(res) != "text/event-stream" {
		body, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
		if err != nil || json.Unmarshal(body, &m) != nil {
			t.Fatalf("%s answered %s %q (%v), not a JSON-RPC message", res.Request.URL, res.Status, body, err)
		}
		return m, nil
	}
	r := newSSEReader(res.Body)
	var events []sseEvent
	for {
		ev, err := r.next()
		if errors.Is(err, io.EOF) {
			t.Fatalf("%s: the SSE answer ended without a response after %+v", res.Request.URL, events)
		}
		if err != nil {
			t.Fatalf("%s: reading the SSE answer: %v", res.Request.URL, err)
		}
		events = append(events, ev)
		if ev.data != "" && json.Unmarshal([]byte(ev.data), &m) == nil && len(m.ID) > 0 {
			return m, events
		}
	}
}

// initializeMsg is an initialize request for version, with id 1.
func initializeMsg(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"mcpscope-test","version":"0"}}}`
}

// resultVersion returns the protocolVersion of an initialize result.
func resultVersion(m wireMsg) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.Result, &r)
	return r.ProtocolVersion
}
