package tlscert

import (
	"crypto/sha256"
	"crypto/x509"
	"strings"
	"testing"
	"time"
)

func TestSelfSignedIsPinnableAndVerifiesAsItsOwnRoot(t *testing.T) {
	now := time.Now()
	cert, err := SelfSigned("test", now, 13*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	leaf := cert.Leaf
	if life := leaf.NotAfter.Sub(leaf.NotBefore); life >= MaxPinnableValidity {
		t.Fatalf("validity %v is not under 14 days", life)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	for _, host := range []string{"127.0.0.1", "localhost", "::1"} {
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: host, CurrentTime: now}); err != nil {
			t.Errorf("verify for %s: %v", host, err)
		}
	}
}

func TestSelfSignedForCarriesOnlyItsNames(t *testing.T) {
	now := time.Now()
	cert, err := SelfSignedFor("elsewhere", []string{"mcp.example", "192.0.2.7"}, now, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert.Leaf)
	for host, ok := range map[string]bool{"mcp.example": true, "192.0.2.7": true, "127.0.0.1": false, "localhost": false} {
		_, err := cert.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: host, CurrentTime: now})
		if (err == nil) != ok {
			t.Errorf("verify for %s: %v, want ok %v", host, err, ok)
		}
	}
}

func TestHashRoundTrip(t *testing.T) {
	der := []byte("not really a certificate")
	pin := Hash(der)
	if !strings.HasPrefix(pin, HashPrefix) || len(pin) != len(HashPrefix)+64 {
		t.Fatalf("pin %q", pin)
	}
	d, err := ParseHash(pin[len(HashPrefix):])
	if err == nil {
		t.Fatalf("a pin without the prefix parsed: %x", d)
	}
	d, err = ParseHash(pin)
	if err != nil || d != sha256.Sum256(der) {
		t.Fatalf("ParseHash(%q) = %x, %v", pin, d, err)
	}
	colons := HashPrefix
	for i := 0; i < 64; i += 2 {
		if i > 0 {
			colons += ":"
		}
		colons += strings.ToUpper(pin[len(HashPrefix)+i : len(HashPrefix)+i+2])
	}
	if d2, err := ParseHash(colons); err != nil || d2 != d {
		t.Fatalf("openssl-style pin %q: %x, %v", colons, d2, err)
	}
	if _, err := ParseHash(HashPrefix + "abcd"); err == nil {
		t.Fatal("a short pin parsed")
	}
}
