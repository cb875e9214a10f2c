package oauth

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TestFetchOpensOnlyWebURLs: an authorization endpoint that is not https
// (or http on loopback) is neither opened nor printed as a link; the
// flow stops naming why.
func TestFetchOpensOnlyWebURLs(t *testing.T) {
	for _, u := range []string{
		"file:///etc/passwd?response_type=code",
		"ssh://attacker.example/x",
		"vscode://ext/x?code=1",
		"http://auth.example/authorize",
	} {
		var mu sync.Mutex
		var opened, said []string
		f, err := New(Config{
			Resource: "http://127.0.0.1:1/mcp",
			Wait:     time.Second,
			Open: func(_ context.Context, u string) error {
				mu.Lock()
				opened = append(opened, u)
				mu.Unlock()
				return ErrNoBrowser
			},
			Say: func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.prepare(); err != nil {
			t.Fatal(err)
		}
		_, err = f.fetch(context.Background(), &auth.AuthorizationArgs{URL: u})
		f.Close()
		mu.Lock()
		if len(opened) != 0 {
			t.Errorf("%s was opened", u)
		}
		for _, s := range said {
			if strings.Contains(s, u) {
				t.Errorf("%s was printed as a link: %q", u, s)
			}
		}
		mu.Unlock()
		if err == nil || !strings.Contains(err.Error(), "only https") {
			t.Errorf("%s: got %v, want a refusal naming https", u, err)
		}
	}
	for _, ok := range []string{"https://auth.example/a", "http://127.0.0.1:9/a", "http://[::1]:9/a", "http://localhost/a"} {
		if err := BrowsableURL(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
}

// TestBrowsableURLRefusesLookalikes: forms that look loopback or https
// and are not (a loopback-like name, a short or hex address, an unspecified
// address, userinfo before another host, an empty hostname) are refused,
// as are URLs with a space before them or a control byte in them.
func TestBrowsableURLRefusesLookalikes(t *testing.T) {
	for _, u := range []string{
		"HtTp://localhost.evil.com",
		"http://127.0.0.1.nip.io",
		"http://127.1",
		"http://0x7f.0.0.1",
		"http://0.0.0.0",
		"http://[::]",
		"http://localhost.",
		"http://127.0.0.1@evil.com",
		" http://127.0.0.1/a",
		"https://auth.example/a\x1b[2J",
		"https://:443/x",
	} {
		if err := BrowsableURL(u); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
	for _, u := range []string{"https://a@b", "http://[::1]:8080/cb"} {
		if err := BrowsableURL(u); err != nil {
			t.Errorf("%q refused: %v", u, err)
		}
	}
}
