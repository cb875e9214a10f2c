// Package tlsconf builds the TLS client configuration every network
// transport of mcpscope shares: standard verification by default, a pinned
// self-signed certificate by its SHA-256 digest, verification skipped only
// when asked, and the TLS secrets logged for Wireshark when asked. It also
// words a failed handshake as the error to show.
package tlsconf

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/tlscert"
)

// Options say how to verify the server.
type Options struct {
	// ServerName is the name the certificate must carry (the URL's host).
	ServerName string
	// CertHashes pins the server certificate: "sha256:HEX" digests of the
	// leaf certificate (DER). With any set, the chain is not verified
	// against roots; the leaf must match one of them.
	CertHashes []string
	// Insecure skips certificate verification altogether.
	Insecure bool
	// RootCAs verifies the server when neither CertHashes nor Insecure is
	// set; nil means the system roots.
	RootCAs *x509.CertPool
	// MinVersion is the lowest TLS version accepted (0: TLS 1.2).
	MinVersion uint16
	// NextProtos are the ALPN protocols offered (nil: the transport's own).
	NextProtos []string
}

// Pins parses the "sha256:HEX" digests of hashes. Pinning and skipping
// verification contradict each other.
func Pins(hashes []string, insecure bool) ([][32]byte, error) {
	if insecure && len(hashes) > 0 {
		return nil, errors.New("pinning a certificate hash and skipping verification (insecure) contradict each other")
	}
	pins := make([][32]byte, 0, len(hashes))
	for _, h := range hashes {
		d, err := tlscert.ParseHash(h)
		if err != nil {
			return nil, err
		}
		pins = append(pins, d)
	}
	return pins, nil
}

// Config builds the TLS configuration for o; keyLog, when not nil, receives
// the secrets in NSS key log format. It fails only on a malformed pin.
func Config(o Options, keyLog io.Writer) (*tls.Config, error) {
	pins, err := Pins(o.CertHashes, o.Insecure)
	if err != nil {
		return nil, err
	}
	minVersion := o.MinVersion
	if minVersion == 0 {
		minVersion = tls.VersionTLS12
	}
	cfg := &tls.Config{
		ServerName:   o.ServerName,
		RootCAs:      o.RootCAs,
		MinVersion:   minVersion,
		KeyLogWriter: keyLog,
		NextProtos:   o.NextProtos,
	}
	switch {
	case o.Insecure:
		cfg.InsecureSkipVerify = true
	case len(pins) > 0:
		// Standard verification is off only here: the pin replaces it.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = verifyPin(pins, o.CertHashes)
	}
	return cfg, nil
}

// verifyPin accepts a connection whose leaf certificate's digest is one of
// pins.
func verifyPin(pins [][32]byte, want []string) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("the server presented no certificate")
		}
		got := sha256.Sum256(cs.PeerCertificates[0].Raw)
		for _, pin := range pins {
			if subtle.ConstantTimeCompare(got[:], pin[:]) == 1 {
				return nil
			}
		}
		return &CertHashMismatchError{Got: tlscert.Hash(cs.PeerCertificates[0].Raw), Want: want}
	}
}

// CertHashMismatchError says the server's certificate is not the pinned one.
type CertHashMismatchError struct {
	Got  string   // digest of the certificate the server presented
	Want []string // the pinned digests
}

func (e *CertHashMismatchError) Error() string {
	return fmt.Sprintf("the server certificate has hash %s, which does not match the pinned %s",
		e.Got, strings.Join(e.Want, " or "))
}

// UntrustedCertificateError says the server's certificate failed the
// standard verification (self-signed, unknown authority, wrong name,
// expired). Hash is the digest to pin it with when it is known.
type UntrustedCertificateError struct {
	Hash string
	Err  error
}

func (e *UntrustedCertificateError) Error() string {
	msg := fmt.Sprintf("the server certificate is not trusted: %v", e.Err)
	if e.Hash != "" {
		return msg + fmt.Sprintf("; if this is a self-signed development server, pin its certificate with --cert-hash %s (or skip verification with --insecure)", e.Hash)
	}
	return msg + "; to trust a self-signed development server, pin its certificate with --cert-hash sha256:HEX (or skip verification with --insecure)"
}

// Unwrap returns the verification error.
func (e *UntrustedCertificateError) Unwrap() error { return e.Err }

// Failure turns a failed handshake into the error to show, or nil when the
// failure was not about the certificate.
func Failure(err error) error {
	var mismatch *CertHashMismatchError
	if errors.As(err, &mismatch) {
		return mismatch
	}
	var verify *tls.CertificateVerificationError
	if errors.As(err, &verify) {
		u := &UntrustedCertificateError{Err: verify.Err}
		if len(verify.UnverifiedCertificates) > 0 {
			u.Hash = tlscert.Hash(verify.UnverifiedCertificates[0].Raw)
		}
		return u
	}
	return nil
}

// OpenKeyLog opens the key log file for appending, or returns nil when
// none was asked for.
func OpenKeyLog(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the TLS key log file: %w", err)
	}
	return f, nil
}
