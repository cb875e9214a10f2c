package webtransport

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpscope/mcpscope/internal/tlscert"
)

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

// tlsConfig builds the TLS configuration of the dial: standard
// verification by default, a pinned leaf with CertHashes, none when
// Insecure. keyLog, when not nil, receives the secrets.
func (t *Transport) tlsConfig(keyLog io.Writer) *tls.Config {
	cfg := &tls.Config{
		ServerName:   t.url.Hostname(),
		RootCAs:      t.cfg.RootCAs,
		MinVersion:   tls.VersionTLS13,
		KeyLogWriter: keyLog,
	}
	switch {
	case t.cfg.Insecure:
		cfg.InsecureSkipVerify = true
	case len(t.pins) > 0:
		// Standard verification is off only here: the pin replaces it.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = t.verifyPin
	}
	return cfg
}

// verifyPin accepts the connection when the leaf certificate's digest is
// one of the pinned ones.
func (t *Transport) verifyPin(cs tls.ConnectionState) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("the server presented no certificate")
	}
	got := sha256.Sum256(cs.PeerCertificates[0].Raw)
	for _, pin := range t.pins {
		if subtle.ConstantTimeCompare(got[:], pin[:]) == 1 {
			return nil
		}
	}
	return &CertHashMismatchError{Got: tlscert.Hash(cs.PeerCertificates[0].Raw), Want: t.cfg.CertHashes}
}

// tlsFailure turns a failed handshake into the error to show, or nil when
// the failure was not about the certificate.
func tlsFailure(err error) error {
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

// openKeyLog opens the key log file for appending, or returns nil when
// none was asked for.
func openKeyLog(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the TLS key log file: %w", err)
	}
	return f, nil
}
