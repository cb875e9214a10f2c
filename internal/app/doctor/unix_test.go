package doctor

import (
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/socktest"
)

// unixServer serves h on a Unix socket in a short folder until the test
// ends, and returns the socket's path.
func unixServer(t *testing.T, h http.Handler) string {
	t.Helper()
	path := filepath.Join(socktest.ShortDir(t), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil { // the mode on the checklist, whatever the umask
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close(); <-done })
	return path
}

// walkUnix walks unix://path#req without a session.
func walkUnix(t *testing.T, path, req string) checklist.Report {
	t.Helper()
	u, err := url.Parse("unix://" + path + "#" + req)
	if err != nil {
		t.Fatal(err)
	}
	return Run(t.Context(), Config{Transport: "http", URL: u})
}

// On a Unix socket the walk checks the socket file and the connection in
// place of DNS, TCP and TLS, and posts its probe to http://localhost with
// the request path of the URL's fragment.
func TestUnixWalkGolden(t *testing.T) {
	var host, path string
	sock := unixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, path = r.Host, r.URL.Path
		http.NotFound(w, r)
	}))
	out := render(t, walkUnix(t, sock, "/mcp"))
	if host != "localhost" || path != "/mcp" {
		t.Errorf("the probe went to host %q path %q; want localhost /mcp", host, path)
	}
	out = strings.ReplaceAll(out, sock, "/tmp/SOCKET")
	goldentest.Check(t, "checklist_unix_not_found", out)
}

// A 401 over a Unix socket fails the auth step with the one way in:
// a token by --header (no OAuth flow runs there, and no metadata is
// fetched from the network).
func TestUnixWalkAuth(t *testing.T) {
	var asked []string
	sock := unixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	rep := walkUnix(t, sock, "/mcp")
	f := rep.Failure()
	if f == nil || f.Step != "auth" || f.Fix != unixAuthFix {
		t.Fatalf("failure %+v; want auth with the fix %q", f, unixAuthFix)
	}
	if len(asked) != 1 {
		t.Errorf("the walk asked %v; want the probe alone", asked)
	}
}
