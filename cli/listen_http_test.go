package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// listenLines returns the JSON messages a listen printed on stdout.
func listenLines(t *testing.T, r result) []wireMsg {
	t.Helper()
	var out []wireMsg
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m wireMsg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// subscriptionOf returns the subscription id a notification is tagged with.
func subscriptionOf(m wireMsg) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return string(p.Meta["io.modelcontextprotocol/subscriptionId"])
}

// TestInteropHTTPConformanceListen listens to the Go SDK conformance
// server's watched resource, which it updates every 3 s: the
// acknowledgement and the updates are printed as they come, all tagged with
// the listen's id, and --max-time ends the acknowledged listen well,
// closing its stream.
func TestInteropHTTPConformanceListen(t *testing.T) {
	t.Parallel()
	url := peertest.StartGoSDKConformanceHTTP(t, true).URL
	r := httpRun(t, url, "call", "--max-time", "7s", "subscriptions/listen",
		`{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://watched-resource"]}}`)
	r.mustExit(t, ExitOK)
	lines := listenLines(t, r)
	if len(lines) < 2 || lines[0].Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("want the acknowledgement then updates, got:\n%s", r.stdout)
	}
	id := ""
	if line := tracedLine(r, "request subscriptions/listen id="); line != "" {
		id = line[strings.LastIndex(line, "id=")+3:]
	}
	for _, m := range lines {
		if got := subscriptionOf(m); got != id || id == "" {
			t.Errorf("%s tagged %s, want the listen's id %s", m.Method, got, id)
		}
		if m.Method != "notifications/subscriptions/acknowledged" && m.Method != "notifications/resources/updated" {
			t.Errorf("unexpected %s", m.Method)
		}
	}
	if !strings.Contains(r.stderr, "listened") || !strings.Contains(r.stderr, fmt.Sprintf("on subscription %s", id)) {
		t.Errorf("no summary on stderr:\n%s", r.stderr)
	}
	mustTrace(t, r, "closed the answer stream to cancel subscriptions/listen")
}

// listenServer is a scripted 2026-07-28 server: it cuts the stream of the
// first subscriptions/listen after acknowledging it (no event id, so
// nothing to resume), and ends the second after one notification.
type listenServer struct {
	mu  sync.Mutex
	ids []string
}

func (s *listenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "no", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m wireMsg
	_ = json.Unmarshal(body, &m)
	switch m.Method {
	case "server/discover":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"resources":{"subscribe":true}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"scripted","version":"1"}}}}`, m.ID)
	case "subscriptions/listen":
		s.mu.Lock()
		s.ids = append(s.ids, string(m.ID))
		n := len(s.ids)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		tag := fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/subscriptionId":%s}`, m.ID)
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{%s,\"notifications\":{\"toolsListChanged\":true}}}\n\n", tag)
		if n == 1 {
			return // the stream ends with no answer and no event id
		}
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{%s}}\n\n", tag)
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"resultType\":\"complete\",\"_meta\":{}}}\n\n", m.ID)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// TestListenReissuedAfterACutStream: a subscription whose stream the server
// cuts is re-issued under a new id; the notifications of the new stream
// are tagged with it, and the server's result ends the run.
func TestListenReissuedAfterACutStream(t *testing.T) {
	t.Parallel()
	srv := &listenServer{}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	r := httpRun(t, ts.URL, "call", "subscriptions/listen", `{"notifications":{"toolsListChanged":true}}`)
	r.mustExit(t, ExitOK)
	srv.mu.Lock()
	ids := append([]string(nil), srv.ids...)
	srv.mu.Unlock()
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("listen ids = %v, want two different ids", ids)
	}
	lines := listenLines(t, r)
	var got []string
	for _, m := range lines {
		got = append(got, m.Method+"@"+subscriptionOf(m))
	}
	want := []string{
		"notifications/subscriptions/acknowledged@" + ids[0],
		"notifications/subscriptions/acknowledged@" + ids[1],
		"notifications/tools/list_changed@" + ids[1],
		"@", // the result
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stdout = %v, want %v", got, want)
	}
	for _, part := range []string{"subscription " + ids[0] + " broke", "re-issuing in 250ms", "re-issued subscriptions/listen as id " + ids[1]} {
		if !strings.Contains(r.stderr, part) {
			t.Errorf("stderr lacks %q:\n%s", part, r.stderr)
		}
	}
}
