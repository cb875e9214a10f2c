package cli

import (
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"

	"github.com/mcpscope/mcpscope/demo"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// oauthEnv gives the test a token store of its own and the fake browser
// as $BROWSER, which follows the authorization URL's redirect at once.
func oauthEnv(t *testing.T) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("MCPSCOPE_KEYRING", "off")
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
}

// demoCore is the demo's server, its sandbox a temporary folder; it is
// closed at the end of the test.
func demoCore(t *testing.T) *demo.Server {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	return core
}

// demoWSHandler is the demo's WebSocket endpoints, to put behind the
// fixture's authorization server; it is closed at the end of the test.
func demoWSHandler(t *testing.T) *demows.Handler {
	t.Helper()
	h := demows.New(demoCore(t), demows.Options{})
	t.Cleanup(func() { h.Close() })
	return h
}

// echoCall is `call tools/call` of the fixture's echo tool.
func echoCall(tool, text string) []string {
	return []string{"call", "tools/call", `{"name":"` + tool + `","arguments":{"text":"` + text + `"}}`}
}

// seen returns the requests the fixture saw whose path ends with suffix.
func seen(srv *oauthtest.Server, method, suffix string) []oauthtest.Request {
	var out []oauthtest.Request
	for _, r := range srv.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			out = append(out, r)
		}
	}
	return out
}

// authorizeQuery is the query of the n-th authorization request.
func authorizeQuery(t *testing.T, srv *oauthtest.Server, n int) url.Values {
	t.Helper()
	got := seen(srv, "GET", "/authorize")
	if len(got) <= n {
		t.Fatalf("%d authorization requests, want more than %d", len(got), n)
	}
	return got[n].Query
}

// expireStored moves the expiry of the tokens stored for resource into
// the past.
func expireStored(t *testing.T, resource string) {
	t.Helper()
	store, err := tokenstore.Default()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := store.Find(resource)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no token stored for %s: %v", resource, err)
	}
	for _, e := range entries {
		e.Expiry = time.Now().Add(-time.Minute)
		if err := store.Save(e); err != nil {
			t.Fatal(err)
		}
	}
}

// refreshesCarryResource fails unless every refresh grant the fixture
// saw named the resource its token is bound to (RFC 8707, as MCP asks of
// every token request), and returns how many there were.
func refreshesCarryResource(t *testing.T, srv *oauthtest.Server) int {
	t.Helper()
	n := 0
	for _, r := range seen(srv, "POST", "/token") {
		if r.Form.Get("grant_type") != "refresh_token" {
			continue
		}
		n++
		if got := r.Form.Get("resource"); got != srv.Resource {
			t.Fatalf("a refresh asked for resource %q, want %q", got, srv.Resource)
		}
	}
	return n
}

// mustNotHold fails when any of the secrets appears in text.
func mustNotHold(t *testing.T, what, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			t.Fatalf("%s holds the secret %q", what, s)
		}
	}
}

// oauthFrames reads the recording at path and returns the bytes of the
// OAuth flow's frames on the HTTP channel, by connection name ("oauth 1",
// "oauth browser", "oauth callback"), each connection's frames joined in
// order.
func oauthFrames(t *testing.T, path string) map[string]string {
	t.Helper()
	rd, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	out := map[string]string{}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Kind != recordings.RecFrame || !strings.HasPrefix(rec.Frame.Conn, "oauth ") {
			continue
		}
		if rec.Frame.Chan.Kind != capture.HTTP {
			t.Fatalf("the OAuth frame of %s is on the %v channel, not HTTP", rec.Frame.Conn, rec.Frame.Chan.Kind)
		}
		out[rec.Frame.Conn] += string(rec.Frame.Raw) + "\n"
	}
}
