package demohttp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/demo"
)

// FuzzParseEventID: any Last-Event-ID parses without a panic, and an id
// that parses is the one eventID writes for its numbers (up to leading
// zeros).
func FuzzParseEventID(f *testing.F) {
	for _, s := range []string{"1-0", "0-18446744073709551615", "-", "1-", "a-b", "1-2-3", "+1-2", " 1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		num, seq, ok := parseEventID(id)
		if !ok {
			return
		}
		n2, s2, ok2 := parseEventID(eventID(num, seq))
		if !ok2 || n2 != num || s2 != seq {
			t.Fatalf("%q → %d %d → %q", id, num, seq, eventID(num, seq))
		}
	})
}

// FuzzSSEEvent: whatever the data, the event written reads back (with the
// tests' reader) as the same lines of data, the same id and name: the
// writer puts one space after each colon, which the reader takes off.
func FuzzSSEEvent(f *testing.F) {
	for _, s := range []string{"", "{}", "a\nb", "a\r\nb\rc", "\n", "x\r"} {
		f.Add(s, "3-4", "message")
	}
	f.Fuzz(func(t *testing.T, data, id, name string) {
		if strings.ContainsAny(id+name, "\r\n") || !utf8.ValidString(id+name) {
			return
		}
		b := sseEvent{id: id, name: name, data: []byte(data)}.appendTo(nil)
		e, err := readEvents(t, bytes.NewReader(b)).next()
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		want := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(data), "\n")
		if strings.Join(e.data, "\n") != strings.Join(want, "\n") || len(e.data) != len(want) || e.id != id || e.name != name {
			t.Fatalf("%q read as %+v", b, e)
		}
	})
}

// FuzzHandler: any body POSTed to any endpoint, with or without a
// session, is answered with a status of the transport's rules, without a
// panic; a 2xx answer to a request says what it is.
func FuzzHandler(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"2.0","id":2,"result":{}}`, "", "\xef\xbb\xbf{}",
	} {
		f.Add(s, uint8(0), true)
	}
	core, err := demo.New(demo.Options{SandboxRoot: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	defer core.Close()
	h := New(core, Options{MaxBody: 4096})
	defer h.Close()
	sid := func() string {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, PathMCP, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
		r.Header.Set("Accept", mediaJSON+", "+mediaSSE)
		h.ServeHTTP(w, r)
		return w.Header().Get(headerSession)
	}()
	paths := []string{PathMCP, PathTools, PathMessage + "?sessionId=x", PathMCP}
	f.Fuzz(func(t *testing.T, body string, path uint8, session bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, paths[int(path)%len(paths)], strings.NewReader(body))
		r.Header.Set("Accept", mediaJSON+", "+mediaSSE)
		if session {
			r.Header.Set(headerSession, sid)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK, http.StatusAccepted, http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge,
			http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusServiceUnavailable:
		default:
			t.Fatalf("%q: status %d", body, w.Code)
		}
		if w.Code == http.StatusOK && w.Header().Get("Content-Type") == "" {
			t.Fatalf("%q: 200 without a Content-Type", body)
		}
		_, _ = io.Copy(io.Discard, w.Body)
	})
}
