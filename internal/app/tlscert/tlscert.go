// Package tlscert makes the short-lived self-signed certificates of the demo
// server and the tests, and computes and parses the "sha256:HEX" pins that
// --cert-hash takes.
package tlscert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"
)

// HashPrefix starts a pinned certificate digest.
const HashPrefix = "sha256:"

// MaxPinnableValidity is the longest lifetime WebTransport accepts for a
// certificate pinned by hash (serverCertificateHashes): 14 days.
const MaxPinnableValidity = 14 * 24 * time.Hour

// loopbackNames are the names of a SelfSigned certificate.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// SelfSigned makes a self-signed ECDSA P-256 certificate for 127.0.0.1, ::1
// and localhost, valid from an hour before now for validity.
func SelfSigned(commonName string, now time.Time, validity time.Duration) (tls.Certificate, error) {
	return SelfSignedFor(commonName, loopbackNames, now, validity)
}

// SelfSignedFor is SelfSigned for other names: each an IP address or a
// DNS name.
func SelfSignedFor(commonName string, names []string, now time.Time, validity time.Duration) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("generating the certificate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("generating the certificate serial: %w", err)
	}
	notBefore := now.Add(-time.Hour)
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: commonName},
		NotBefore:             notBefore,
		NotAfter:              notBefore.Add(validity),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("creating the certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("reading back the certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// Hash returns the pin of a DER certificate: "sha256:" and the hex SHA-256
// of the DER bytes.
func Hash(der []byte) string {
	d := sha256.Sum256(der)
	return HashPrefix + hex.EncodeToString(d[:])
}

// ParseHash parses a pin "sha256:HEX": 64 hex digits, in either case,
// optionally separated by colons as openssl prints them.
func ParseHash(s string) ([32]byte, error) {
	var d [32]byte
	digits, ok := strings.CutPrefix(strings.TrimSpace(s), HashPrefix)
	if !ok {
		return d, fmt.Errorf("certificate hash %q must start with %q", s, HashPrefix)
	}
	digits = strings.ReplaceAll(digits, ":", "")
	b, err := hex.DecodeString(digits)
	if err != nil || len(b) != len(d) {
		return d, fmt.Errorf("certificate hash %q must be %s followed by 64 hex digits (the SHA-256 of the certificate's DER)", s, HashPrefix)
	}
	copy(d[:], b)
	return d, nil
}
