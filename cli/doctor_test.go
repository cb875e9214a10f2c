package cli

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/flow"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// doctorRun runs `mcpscope doctor` with a short per-step timeout.
func doctorRun(t *testing.T, args ...string) result {
	t.Helper()
	return mcpscope(t, append([]string{"doctor", "--timeout", "20s"}, args...)...)
}

// failedStep returns the step the checklist names as failed, or "".
func failedStep(out string) string {
	m := regexp.MustCompile(`(?m)^  ✗ (\S+)`).FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// mustFailAt checks that the walk failed at step with code, the failure
// section naming it.
func (r result) mustFailAt(t *testing.T, step string, code int) {
	t.Helper()
	r.mustExit(t, code)
	if got := failedStep(r.stdout); got != step {
		t.Fatalf("failed step %q, want %q:\n%s", got, step, r.stdout)
	}
	if !strings.Contains(r.stdout, "\n"+step+" failed: ") || !strings.Contains(r.stdout, "\nfix: ") {
		t.Fatalf("no failure line for %s with a fix:\n%s", step, r.stdout)
	}
}

// mustAllPass checks that every step of the checklist passed.
func (r result) mustAllPass(t *testing.T, steps ...string) {
	t.Helper()
	r.mustExit(t, ExitOK)
	for _, s := range steps {
		if !regexp.MustCompile(`(?m)^  ✓ ` + regexp.QuoteMeta(s) + ` `).MatchString(r.stdout) {
			t.Errorf("step %s did not pass:\n%s", s, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "✗") || !strings.Contains(r.stdout, "every step passed") {
		t.Errorf("not every step passed:\n%s", r.stdout)
	}
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestDoctorClosedPortFailsAtTCP(t *testing.T) {
	t.Parallel()
	r := doctorRun(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", closedPort(t)))
	r.mustFailAt(t, "tcp", ExitConnection)
	if !strings.Contains(r.stdout, "  - handshake") {
		t.Errorf("the steps after tcp are not skipped:\n%s", r.stdout)
	}
}

func TestDoctorUnresolvableNameFailsAtDNS(t *testing.T) {
	t.Parallel()
	// RFC 2606: .invalid never resolves.
	doctorRun(t, "http://mcpscope-doctor.invalid/mcp").mustFailAt(t, "dns", ExitConnection)
}

// selfSignedServer serves h over TLS with a fresh self-signed certificate
// and returns its URL and the certificate's pin.
func selfSignedServer(t *testing.T, h http.Handler) (string, string) {
	t.Helper()
	cert, err := tlscert.SelfSigned("doctor-test", time.Now(), 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.URL, tlscert.Hash(cert.Certificate[0])
}

func TestDoctorSelfSignedCertificatePrintsItsPin(t *testing.T) {
	t.Parallel()
	url, pin := selfSignedServer(t, http.NotFoundHandler())
	r := doctorRun(t, url+"/mcp")
	r.mustFailAt(t, "tls", ExitConnection)
	if !strings.Contains(r.stdout, "self-signed") || !strings.Contains(r.stdout, "fix: if you trust this server, pin its certificate: --cert-hash "+pin+"\n") {
		t.Fatalf("the fix does not give the server's pin %s:\n%s", pin, r.stdout)
	}
	// With the pin, TLS passes and the walk goes on to HTTP.
	r = doctorRun(t, "--cert-hash", pin, url+"/mcp")
	r.mustFailAt(t, "http", ExitConnection)
	if !strings.Contains(r.stdout, "  ✓ tls") || !strings.Contains(r.stdout, "pinned by --cert-hash") {
		t.Fatalf("tls did not pass with the pin:\n%s", r.stdout)
	}
}

func TestDoctorHTTPServerThatIsNotMCP(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<html>hello</html>")
		case "/moved":
			http.Redirect(w, r, "/mcp", http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	r := doctorRun(t, srv.URL+"/mcp")
	r.mustFailAt(t, "http", ExitConnection)
	if !strings.Contains(r.stdout, "404 Not Found: no MCP endpoint at this path") {
		t.Errorf("404 not named:\n%s", r.stdout)
	}
	r = doctorRun(t, srv.URL+"/page")
	r.mustFailAt(t, "http", ExitProtocol)
	if !strings.Contains(r.stdout, "content type text/html; charset=utf-8, not JSON") {
		t.Errorf("the content type is not named:\n%s", r.stdout)
	}
	r = doctorRun(t, srv.URL+"/moved")
	r.mustFailAt(t, "http", ExitConnection)
	if !strings.Contains(r.stdout, "fix: use the URL it redirects to: /mcp") {
		t.Errorf("the redirect is not named:\n%s", r.stdout)
	}
}

func TestDoctorServerAskingForAuth(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer good" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":"mcpscope-doctor","result":{}}`)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp", scope="tools"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"resource":"`+srv.URL+`/mcp","authorization_servers":["https://auth.example"]}`)
	})
	r := doctorRun(t, srv.URL+"/mcp")
	r.mustFailAt(t, "auth", ExitConnection)
	for _, want := range []string{"  ✓ http", `challenge Bearer resource_metadata=`, "protected resource metadata at " + srv.URL + "/.well-known/oauth-protected-resource/mcp (authorization servers: https://auth.example)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("missing %q:\n%s", want, r.stdout)
		}
	}
	// With the credentials the auth step passes (and the walk goes on).
	r = doctorRun(t, "--header", "Authorization: Bearer good", srv.URL+"/mcp")
	if !strings.Contains(r.stdout, "  ✓ auth") {
		t.Errorf("auth did not pass with the credentials:\n%s", r.stdout)
	}
}

func TestDoctorCommandNotFound(t *testing.T) {
	t.Parallel()
	r := doctorRun(t, "--", "mcpscope-doctor-no-such-command")
	r.mustFailAt(t, "command", ExitConnection)
	if !strings.Contains(r.stdout, `"mcpscope-doctor-no-such-command" is not found`) {
		t.Errorf("the command is not named:\n%s", r.stdout)
	}
}

func TestDoctorCommandPrintingJunk(t *testing.T) {
	t.Parallel()
	r := doctorRun(t, "--", "sh", "-c", "echo 'starting up...'; sleep 30")
	r.mustFailAt(t, "stdout", ExitProtocol)
	if !strings.Contains(r.stdout, `"starting up..."`) || !strings.Contains(r.stdout, "  ✓ start") {
		t.Errorf("the junk line is not named:\n%s", r.stdout)
	}
}

func TestDoctorHealthyStdio(t *testing.T) {
	t.Parallel()
	r := doctorRun(t, append([]string{"--"}, peertest.GoSDKEverything(t)...)...)
	r.mustAllPass(t, "target", "command", "start", "stdout", "handshake", "tools/list")
}

func TestDoctorHealthyHTTP(t *testing.T) {
	t.Parallel()
	for _, p := range []struct {
		name  string
		start func(testing.TB) *peertest.HTTPPeer
	}{
		{"TSReference", peertest.StartTSStreamableHTTP},
		{"GoSDKEverything", peertest.StartGoSDKEverythingHTTP},
	} {
		t.Run(p.name, func(t *testing.T) {
			r := doctorRun(t, p.start(t).URL)
			r.mustAllPass(t, "target", "dns", "tcp", "http", "auth", "handshake", "tools/list")
		})
	}
}

func TestDoctorHealthyWebSocket(t *testing.T) {
	t.Parallel()
	r := doctorRun(t, peertest.StartSupergatewayWS(t).URL)
	r.mustAllPass(t, "target", "dns", "tcp", "websocket", "auth", "handshake", "tools/list")
	if !strings.Contains(r.stdout, `subprotocol "mcp"`) {
		t.Errorf("the subprotocol is not shown:\n%s", r.stdout)
	}
}

func TestDoctorHealthyMCPFlow(t *testing.T) {
	t.Parallel()
	d := flowtest.Start(t, flow.Config{})
	r := doctorRun(t, "--cert-hash", d.CertHash(), d.Target())
	r.mustAllPass(t, "target", "dns", "quic", "tls", "webtransport", "handshake", "tools/list")
	if !strings.Contains(r.stdout, "datagrams on") {
		t.Errorf("datagrams are not shown:\n%s", r.stdout)
	}
}

func TestTUIShowsTheDoctorWhenItCannotConnect(t *testing.T) {
	r := startTUI(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", closedPort(t)))
	r.waitFor(t, "Connection doctor", "✗ tcp", "fix: start the server")
	if _, err := r.keys.Write([]byte("q")); err != nil { // closes the checklist
		t.Fatal(err)
	}
	if code := r.quit(t); code != ExitConnection {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitConnection, r.errb.String())
	}
}

func TestDoctorCommandExitingBeforeTheHandshake(t *testing.T) {
	t.Parallel()
	r := doctorRun(t, "--", "sh", "-c", "echo 'missing API key' >&2; exit 3")
	r.mustFailAt(t, "handshake", ExitConnection)
	if !strings.Contains(r.stdout, `exited with status 3 before answering initialize; last stderr: "missing API key"`) {
		t.Errorf("the exit is not named:\n%s", r.stdout)
	}
}

func TestDoctorTakesSeveralPinsAsTheTransportsDo(t *testing.T) {
	t.Parallel()
	url, pin := selfSignedServer(t, http.NotFoundHandler())
	other := "sha256:" + strings.Repeat("00", 32)
	r := doctorRun(t, "--cert-hash", other+","+pin, url+"/mcp")
	r.mustFailAt(t, "http", ExitConnection)
	if !strings.Contains(r.stdout, "pinned by --cert-hash") {
		t.Fatalf("tls did not pass with the second pin:\n%s", r.stdout)
	}
	r = doctorRun(t, "--cert-hash", other, url+"/mcp")
	r.mustFailAt(t, "tls", ExitConnection)
	if !strings.Contains(r.stdout, "fix: pin the certificate the server presents: --cert-hash "+pin+"\n") {
		t.Fatalf("the fix does not give the server's pin %s:\n%s", pin, r.stdout)
	}
}

// TestDoctorAgreesWithTheTransportOnLegacySSE: without --transport, a
// legacy HTTP+SSE server (the TypeScript reference's sse mode, mark3labs'
// dynamic_path) is reached by the doctor's HTTP step as the transport
// reaches it — the POST refused without a JSON-RPC answer, then the legacy
// GET stream and its endpoint event — and the step says so: the walk
// passes where `mcpscope tools URL` does.
func TestDoctorAgreesWithTheTransportOnLegacySSE(t *testing.T) {
	t.Parallel()
	for _, p := range []struct {
		name  string
		start func(testing.TB) *peertest.HTTPPeer
	}{
		{"TSReference", peertest.StartTSSSE},
		{"Mark3labsDynamicPath", peertest.StartMark3labsDynamicPath},
	} {
		t.Run(p.name, func(t *testing.T) {
			url := p.start(t).URL
			mcpscope(t, "tools", url).mustExit(t, ExitOK)
			r := doctorRun(t, url)
			r.mustAllPass(t, "target", "dns", "tcp", "http", "auth", "handshake", "tools/list")
			if !regexp.MustCompile(`✓ http .*POST → 40[045] .*with no JSON-RPC answer; the legacy HTTP\+SSE transport \(2024-11-05\): GET → 200 OK, text/event-stream.*, endpoint /`).MatchString(r.stdout) {
				t.Errorf("the http step does not say it fell back to the legacy stream:\n%s", r.stdout)
			}
		})
	}
}

// demoHTTPS serves the demo's HTTP endpoints over TLS on 127.0.0.1 with a
// self-signed certificate; it returns https://HOST:PORT and the
// certificate's pin.
func demoHTTPS(t *testing.T) (base, pin string) {
	t.Helper()
	h := demohttp.New(demoCore(t), demohttp.Options{})
	base, pin = selfSignedServer(t, h)
	t.Cleanup(h.Close) // before the server's Close: its streams are the handler's
	return base, pin
}

// TestDoctorHealthyOverTLS: a self-signed https:// and wss:// server pinned
// with --cert-hash pass every step, the TLS one saying it is pinned.
func TestDoctorHealthyOverTLS(t *testing.T) {
	t.Parallel()
	https, httpsPin := demoHTTPS(t)
	wss, wssPin := demoWSS(t)
	for _, tc := range []struct {
		name, url, pin, upgrade string
	}{
		{"https", https + demohttp.PathMCP, httpsPin, "http"},
		{"wss", wss + demows.PathMCP, wssPin, "websocket"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := doctorRun(t, "--cert-hash", tc.pin, tc.url)
			r.mustAllPass(t, "target", "dns", "tcp", "tls", tc.upgrade, "auth", "handshake", "tools/list")
			if !regexp.MustCompile(`✓ tls .*pinned by --cert-hash`).MatchString(r.stdout) {
				t.Errorf("the tls step does not say the certificate is pinned:\n%s", r.stdout)
			}
		})
	}
}

// Seed 004's dialects have no handshake and carry tools/call only: the
// doctor connects, says there is no handshake to make, skips tools/list
// with the reason and passes; tools-http's refusal of the probe in a
// JSON-RPC envelope is the endpoint answering, not a missing one.
func TestDoctorHealthySeed004(t *testing.T) {
	for _, d := range []struct {
		transport string
		start     func(context.Context, string) (Target, func() error, error)
		step      string
		over      string
	}{
		{"tools-http", startHTTPDemo, "http", "HTTP"},
		{"tools-ws", startWSDemo, "websocket", "WebSocket"},
	} {
		t.Run(d.transport, func(t *testing.T) {
			r := doctorRun(t, "--transport", d.transport, startTestDemo(t, d.start, d.transport))
			r.mustAllPass(t, "target", "dns", "tcp", d.step, "auth", "handshake")
			for _, want := range []string{
				"none to make: tool frames over " + d.over + " (" + d.transport + ") have no handshake",
				"- tools/list           tool frames over " + d.over + " (" + d.transport + ") carry tools/call only",
			} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("no %q in:\n%s", want, r.stdout)
				}
			}
		})
	}
}
