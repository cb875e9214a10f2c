package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// refusingServer is a 2025-11-25 Streamable HTTP server that answers
// tools/list on an SSE stream carrying pings first, refuses every POST of
// an answer with 500, and sends the list once it refused them all.
type refusingServer struct {
	pings   int
	refused atomic.Int64
	all     chan struct{} // closed once every answer was refused
}

func (s *refusingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "no", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m wireMsg
	_ = json.Unmarshal(body, &m)
	switch {
	case m.Method == "initialize":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"refusing","version":"1"}}}`, m.ID)
	case m.Method == "tools/list":
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range s.pings {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"p%d\",\"method\":\"ping\"}\n\n", i)
		}
		w.(http.Flusher).Flush()
		select {
		case <-s.all:
		case <-time.After(guard.Hang):
		case <-r.Context().Done():
			return
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[]}}\n\n", m.ID)
	case m.Method == "" && len(m.ID) > 0:
		if s.refused.Add(1) == int64(s.pings) {
			close(s.all)
		}
		http.Error(w, "no thanks", http.StatusInternalServerError)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// A server that refuses the POSTs of mcpscope's answers to its requests:
// the run says so in a few warnings and a count, and does not exit 0,
// although the call itself was answered.
func TestUnsentAnswersFailTheRun(t *testing.T) {
	t.Parallel()
	const pings = 12
	srv := &refusingServer{pings: pings, all: make(chan struct{})}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	r := mcpscope(t, "tools", "--protocol", "2025-11-25", "--timeout", "10s", ts.URL)
	r.mustExit(t, ExitConnection)
	var warned []string
	for _, ln := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(ln, "warning: the answer to id ") {
			warned = append(warned, ln)
		}
	}
	if len(warned) != 5 || !strings.Contains(warned[0], "HTTP 500") {
		t.Fatalf("%d warnings about single answers, want 5:\n%s", len(warned), r.stderr)
	}
	for _, want := range []string{
		fmt.Sprintf("warning: %d more answers that could not be sent were not shown\n", pings-5),
		fmt.Sprintf("error: %d answers to the server's requests could not be sent; the server never got them\n", pings),
	} {
		if !strings.Contains(r.stderr, want) {
			t.Fatalf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
}
