package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestDiscoverAuthorizationFailureReported: when the server refuses the
// server/discover probe for want of authorization and authorizing fails
// (here: the authorization server offers no way to register and no
// --client-id was given; or --no-auth), the error is the probe's
// authorization failure, not that of an initialize sent after it.
func TestDiscoverAuthorizationFailureReported(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"the flow fails", nil, "no configured client registration methods"},
		{"--no-auth", []string{"--no-auth"}, "401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oauthEnv(t)
			srv := oauthtest.Start(t, oauthtest.Options{})
			r := mcpscope(t, append(append([]string{"tools"}, tc.args...), srv.MCPURL)...)
			r.mustExit(t, ExitConnection)
			if !strings.Contains(r.stderr, "server/discover (id 1)") || !strings.Contains(r.stderr, tc.want) ||
				strings.Contains(r.stderr, "initialize") {
				t.Fatalf("stderr does not report the probe's authorization failure (%q):\n%s", tc.want, r.stderr)
			}
			if n := len(seen(srv, "POST", "/mcp")); n != 1 {
				t.Errorf("%d POSTs reached the MCP endpoint, want the probe's alone", n)
			}
		})
	}
}

// versionRefusingServer is a Streamable HTTP server that refuses the first
// server/discover with HTTP 400 and -32022 listing supported, then answers
// as a server of those versions: server/discover as a 2026-07-28 one,
// initialize accepting what it is offered if listed. It records the
// methods it got, with the version each named.
func versionRefusingServer(t *testing.T, supported ...string) (url string, got func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	refused := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string                     `json:"protocolVersion"`
				Meta            map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || json.Unmarshal(body, &m) != nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		version := m.Params.ProtocolVersion
		if v, ok := m.Params.Meta["io.modelcontextprotocol/protocolVersion"]; ok {
			_ = json.Unmarshal(v, &version)
		}
		mu.Lock()
		seen = append(seen, m.Method+" "+version)
		first := m.Method == "server/discover" && !refused
		refused = refused || first
		mu.Unlock()
		list, _ := json.Marshal(supported)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case len(m.ID) == 0:
			w.WriteHeader(http.StatusAccepted)
		case first:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":%s,"requested":%q}}}`,
				m.ID, list, version)
		case m.Method == "server/discover":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":%s,"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"v","version":"1"}}}}`, m.ID, list)
		case m.Method == "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"v","version":"1"}}}`, m.ID, version)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, m.ID)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// TestDiscoverUnsupportedVersion: a server/discover answered with -32022
// is a recognised 2026-07-28 error: mcpscope retries with a version from
// its list instead of falling back to a bare initialize (which such a
// server answers with a result naming no protocolVersion: exit 5 before).
func TestDiscoverUnsupportedVersion(t *testing.T) {
	for _, tc := range []struct {
		name      string
		supported []string
		want      []string
	}{
		{"2026-07-28 listed: discover again", []string{"2026-07-28"},
			[]string{"server/discover 2026-07-28", "server/discover 2026-07-28", "tools/list 2026-07-28"}},
		{"older versions listed: initialize offers the newest", []string{"1999-01-01", "2025-03-26", "2025-06-18"},
			[]string{"server/discover 2026-07-28", "initialize 2025-06-18", "notifications/initialized ", "tools/list "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, got := versionRefusingServer(t, tc.supported...)
			r := mcpscope(t, "tools", url)
			r.mustExit(t, ExitOK)
			if !slices.Equal(got(), tc.want) {
				t.Fatalf("the server got %q, want %q", got(), tc.want)
			}
		})
	}
}
