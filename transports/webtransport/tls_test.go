package webtransport

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// startOnly starts a transport to ts with cfg adjusted by mod.
func startOnly(t *testing.T, ts *wttest.Server, mod func(*Config)) (*Transport, error) {
	t.Helper()
	tr, _ := newTransport(t, ts, mod)
	err := tr.Start(testCtx(t), nil)
	t.Cleanup(func() { _ = tr.Close() })
	return tr, err
}

func TestCertificateChecks(t *testing.T) {
	ts := wttest.NewServer(t, func(p *wttest.Peer) { p.ReadFrame() })
	wrong := "sha256:" + strings.Repeat("ab", 32)
	cases := []struct {
		name    string
		mod     func(*Config)
		wantErr func(error) bool
	}{
		{"pinned hash", nil, nil},
		{"pinned hash with colons and capitals", func(c *Config) {
			c.CertHashes = []string{"sha256:" + strings.ToUpper(colons(strings.TrimPrefix(ts.Hash, "sha256:")))}
		}, nil},
		{"insecure", func(c *Config) { c.CertHashes, c.Insecure = nil, true }, nil},
		{"trusted root", func(c *Config) { c.CertHashes, c.RootCAs = nil, ts.Pool }, nil},
		{"wrong hash", func(c *Config) { c.CertHashes = []string{wrong} }, func(err error) bool {
			var m *CertHashMismatchError
			return errors.As(err, &m) && strings.Contains(err.Error(), ts.Hash) && strings.Contains(err.Error(), wrong)
		}},
		{"self-signed without flags", func(c *Config) { c.CertHashes = nil }, func(err error) bool {
			var u *UntrustedCertificateError
			return errors.As(err, &u) && u.Hash == ts.Hash &&
				strings.Contains(err.Error(), "--cert-hash "+ts.Hash) && strings.Contains(err.Error(), "--insecure")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := startOnly(t, ts, c.mod)
			switch {
			case c.wantErr == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case c.wantErr == nil && tr.State() != StateControlStreamOpened:
				t.Fatalf("state %s after Start", tr.State())
			case c.wantErr != nil && (err == nil || !c.wantErr(err)):
				t.Fatalf("err = %v", err)
			case c.wantErr != nil:
				t.Log(err)
				<-tr.Done()
				if tr.Err() == nil || tr.State() != StateClosed {
					t.Fatalf("after a refused connection: state %s, Err %v", tr.State(), tr.Err())
				}
			}
		})
	}
}

// colons separates hex digits in pairs, as openssl prints a fingerprint.
func colons(hex string) string {
	var parts []string
	for i := 0; i+2 <= len(hex); i += 2 {
		parts = append(parts, hex[i:i+2])
	}
	return strings.Join(parts, ":")
}

func TestConfigRefusals(t *testing.T) {
	for name, cfg := range map[string]Config{
		"http URL":      {URL: "http://127.0.0.1:1/mcp"},
		"short hash":    {URL: "https://127.0.0.1:1/mcp", CertHashes: []string{"sha256:abcd"}},
		"no prefix":     {URL: "https://127.0.0.1:1/mcp", CertHashes: []string{strings.Repeat("ab", 32)}},
		"pin+insecure":  {URL: "https://127.0.0.1:1/mcp", Insecure: true, CertHashes: []string{"sha256:" + strings.Repeat("ab", 32)}},
		"bad encoding":  {URL: "https://127.0.0.1:1/mcp", Encodings: []string{"xml"}},
		"empty":         {},
		"no host":       {URL: "https:///mcp"},
		"not a URL":     {URL: "https://[::1"},
		"empty encoder": {URL: "https://127.0.0.1:1/mcp", Encodings: []string{""}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg)
		}
	}
}

func TestKeyLogIsWrittenInNSSFormat(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("cbor", echoTool))
	path := filepath.Join(t.TempDir(), "keys.log")
	s, _, _ := connect(t, ts, func(c *Config) { c.KeyLogFile = path }, client.Options{})
	if _, err := s.Call(testCtx(t), mcp.MethodPing, nil); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	labels := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || len(fields[1]) != 64 {
			t.Fatalf("key log line is not LABEL CLIENT_RANDOM SECRET: %q", sc.Text())
		}
		labels[fields[0]] = true
	}
	for _, want := range []string{"CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0"} {
		if !labels[want] {
			t.Errorf("key log has no %s line (labels %v)", want, labels)
		}
	}
}

func TestOriginHeaderIsSent(t *testing.T) {
	ts := wttest.NewServer(t, wttest.Serve("json", echoTool))
	connect(t, ts, func(c *Config) { c.Origin = "https://mcpscope.test" }, client.Options{})
	if got := <-ts.Origin; got != "https://mcpscope.test" {
		t.Fatalf("Origin %q", got)
	}
	connect(t, ts, nil, client.Options{})
	if got := <-ts.Origin; got != "" {
		t.Fatalf("Origin %q sent without one configured", got)
	}
}
