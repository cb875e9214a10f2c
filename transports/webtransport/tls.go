package webtransport

import (
	"crypto/tls"
	"io"

	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
)

// CertHashMismatchError says the server's certificate is not the pinned one.
type CertHashMismatchError = tlsconf.CertHashMismatchError

// UntrustedCertificateError says the server's certificate failed the
// standard verification (self-signed, unknown authority, wrong name,
// expired). Hash is the digest to pin it with when it is known.
type UntrustedCertificateError = tlsconf.UntrustedCertificateError

// tlsConfig builds the TLS configuration of the dial: standard
// verification by default, a pinned leaf with CertHashes, none when
// Insecure. keyLog, when not nil, receives the secrets. The pins were
// checked by New.
func (t *Transport) tlsConfig(keyLog io.Writer) *tls.Config {
	cfg, _ := tlsconf.Config(tlsconf.Options{
		ServerName: t.url.Hostname(),
		CertHashes: t.cfg.CertHashes,
		Insecure:   t.cfg.Insecure,
		RootCAs:    t.cfg.RootCAs,
		MinVersion: tls.VersionTLS13,
	}, keyLog)
	return cfg
}

// tlsFailure turns a failed handshake into the error to show, or nil when
// the failure was not about the certificate.
func tlsFailure(err error) error { return tlsconf.Failure(err) }
