package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// discoverRefusingServer is a 2025-11-25 Streamable HTTP server of the
// test's own, on 127.0.0.1: like the TypeScript reference server, it
// answers anything but initialize outside a session with 400 Bad Request
// (server/discover and the doctor's ping among them), then serves the
// session with plain JSON answers.
func discoverRefusingServer(t *testing.T) string {
	t.Helper()
	const session = "s-1"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "no stream", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &m)
		w.Header().Set("Content-Type", "application/json")
		answer := func(result string) {
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+result+`}`)
		}
		switch {
		case m.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", session)
			answer(`{"protocolVersion":"` + m.Params.ProtocolVersion + `","capabilities":{"tools":{}},"serverInfo":{"name":"refuser","version":"1"}}`)
		case r.Header.Get("Mcp-Session-Id") != session:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`)
		case len(m.ID) == 0:
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "tools/list":
			answer(`{"tools":[{"name":"only","inputSchema":{"type":"object"}}]}`)
		default:
			answer(`{}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// The doctor words the probes' refusals as their outcomes: the ping
// outside a session and the server/discover probe were refused with 400,
// and the handshake went on with initialize; nothing says "✓ … 400 Bad
// Request" as if the 400 were the layer working, and nothing fails.
func TestDoctorWordsProbeRefusalsAsOutcomes(t *testing.T) {
	t.Parallel()
	r := runBuilt(t, "doctor", "--timeout", "10s", discoverRefusingServer(t))
	r.mustExit(t, ExitOK)
	for _, want := range []string{
		`(?m)^  ✓ http +\S+  ping probe outside a session: refused \(400 Bad Request, application/json\), as an endpoint that wants the handshake first does$`,
		`(?m)^  ✓ handshake +\S+  server/discover probe: not a 2026-07-28 server \(400 Bad Request\) → initialize handshake; 2025-11-25 · initialize handshake, refuser 1, capabilities: tools$`,
		`(?m)^every step passed$`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("no line matching %s:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "✗") || regexp.MustCompile(`✓ \S+ +\S+  POST → 400`).MatchString(r.stdout) {
		t.Errorf("a 400 shown as a layer's verdict:\n%s", r.stdout)
	}
}

// Over stdio, a server that answers server/discover with -32601 is named
// so by the handshake step, which went on with initialize.
func TestDoctorWordsDiscoverErrorAsOutcome(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "plain")
	r := runBuilt(t, withTarget(argv, "doctor", "--env", env)...)
	r.mustExit(t, ExitOK)
	want := `(?m)^  ✓ handshake +\S+  server/discover probe: not a 2026-07-28 server \(error -32601 Method not found\) → initialize handshake; 2025-11-25 · initialize handshake, stub 1, capabilities: tools$`
	if !regexp.MustCompile(want).MatchString(r.stdout) {
		t.Errorf("no line matching %s:\n%s", want, r.stdout)
	}
}
