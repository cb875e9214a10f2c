package cli

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// upgradeLog is a front for a WebSocket server that notes the
// subprotocols each upgrade through it offers.
type upgradeLog struct {
	mu      sync.Mutex
	offered []string // one entry per upgrade: its Sec-WebSocket-Protocol, "" for none
}

// front serves the log in front of the server at target (a ws:// URL) and
// returns the ws:// URL of the same path through it.
func (l *upgradeLog) front(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: u.Host})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.offered = append(l.offered, strings.Join(r.Header.Values("Sec-WebSocket-Protocol"), ", "))
		l.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return "ws://" + strings.TrimPrefix(srv.URL, "http://") + u.Path
}

// upgrades returns what each upgrade offered, in order.
func (l *upgradeLog) upgrades() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.offered)
}

// The doctor's WebSocket upgrade offers exactly the subprotocols the real
// transport's upgrade (that of its handshake step) offers: "mcp" for ws
// and gateway, none for tools-ws (seed 004 names none), and the step says
// which.
func TestDoctorOffersTheTransportsSubprotocols(t *testing.T) {
	for _, c := range []struct{ transport, want, shown string }{
		{"ws", "mcp", `subprotocol "mcp"`},
		{"gateway", "mcp", `subprotocol "mcp"`},
		{"tools-ws", "", "no subprotocol (none offered)"},
	} {
		t.Run(c.transport, func(t *testing.T) {
			log := &upgradeLog{}
			r := doctorRun(t, "--transport", c.transport, log.front(t, startTestDemo(t, startWSDemo, c.transport)))
			if !regexp.MustCompile(`(?m)^  ✓ websocket .*` + regexp.QuoteMeta(c.shown) + `$`).MatchString(r.stdout) {
				t.Errorf("the websocket step does not pass saying %q:\n%s", c.shown, r.stdout)
			}
			offered := log.upgrades()
			if len(offered) != 2 || offered[0] != c.want || offered[1] != c.want {
				t.Errorf("the doctor's upgrade and the transport's offered %q, want %q both:\n%s", offered, c.want, r.stdout)
			}
		})
	}
}
