package doctor

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
)

// tlsServer serves 404s over TLS with cert and returns its https URL.
func tlsServer(t *testing.T, cert tls.Certificate) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestTLSStepClassifiesTheCertificate: an expired certificate and one for
// another name fail the tls step, each with its own reason and fix; the
// fix of a name mismatch gives the pin.
func TestTLSStepClassifiesTheCertificate(t *testing.T) {
	now := time.Now()
	expired, err := tlscert.SelfSigned("expired", now.Add(-72*time.Hour), 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere, err := tlscert.SelfSignedFor("elsewhere", []string{"mcp.example"}, now, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	day := func(t time.Time) string { return t.UTC().Format(time.DateOnly) }
	for _, tc := range []struct {
		name        string
		cert        tls.Certificate
		detail, fix string
	}{
		{"expired", expired, "the certificate is expired or not yet valid",
			"renew the server's certificate (valid " + day(expired.Leaf.NotBefore) + " to " + day(expired.Leaf.NotAfter) + ")"},
		{"another name", elsewhere, "the certificate is not for 127.0.0.1",
			"connect by a name the certificate carries, or if you trust this server, pin its certificate: --cert-hash " + tlscert.Hash(elsewhere.Leaf.Raw)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := walkURL(t, tlsServer(t, tc.cert), Config{})
			f := r.Failure()
			if f == nil || f.Step != "tls" || f.Class != checklist.Connection || !strings.Contains(f.Detail, tc.detail) || f.Fix != tc.fix {
				t.Fatalf("failure %+v, want tls failing with %q and the fix %q:\n%s", f, tc.detail, tc.fix, render(t, r))
			}
		})
	}
}
