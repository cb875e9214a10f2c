package doctor

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
)

// checkTLS runs the TLS handshake of tc, which does not verify, then
// verifies the certificate itself so that it can say what is wrong: a
// self-signed certificate (and the --cert-hash that pins it), an unknown
// authority, an expired certificate, a name mismatch.
func (w *walk) checkTLS(ctx context.Context, tc *tls.Conn) (string, error) {
	if err := tc.HandshakeContext(ctx); err != nil {
		return "", fail(checklist.Connection, "check that the port speaks TLS (or use http:// / ws:// for a plain server)", "TLS handshake with %s: %w", w.hostPort(), err)
	}
	return w.checkState(tc.ConnectionState())
}

// checkState judges the certificate of a finished TLS handshake.
func (w *walk) checkState(cs tls.ConnectionState) (string, error) {
	host := w.cfg.URL.Hostname()
	if len(cs.PeerCertificates) == 0 {
		return "", fail(checklist.Connection, "the server must present a certificate", "the server presented no certificate")
	}
	leaf := cs.PeerCertificates[0]
	hash := tlscert.Hash(leaf.Raw)
	summary := fmt.Sprintf("%s, %s, expires %s", tls.VersionName(cs.Version), subjectOf(leaf), leaf.NotAfter.UTC().Format(time.DateOnly))
	if w.cfg.Insecure {
		return summary + ", not verified (--insecure)", nil
	}
	conf, err := tlsconf.Config(w.tlsOptions(), nil)
	if err != nil {
		return "", fail(checklist.Usage, "give --cert-hash as sha256: and 64 hex digits", "%w", err)
	}
	if conf.VerifyConnection != nil {
		if err := conf.VerifyConnection(cs); err != nil {
			return "", fail(checklist.Connection, "pin the certificate the server presents: --cert-hash "+hash, "%w", err)
		}
		return summary + ", pinned by --cert-hash", nil
	}
	return summary, verifyChain(cs, host, hash)
}

// subjectOf names a certificate by its common name or first DNS name.
func subjectOf(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return "CN=" + c.Subject.CommonName
	}
	if len(c.DNSNames) > 0 {
		return "DNS=" + c.DNSNames[0]
	}
	return "no subject"
}

// verifyChain verifies the presented chain against the system roots for
// host, and words the failure with its fix.
func verifyChain(cs tls.ConnectionState, host, hash string) error {
	leaf := cs.PeerCertificates[0]
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	_, err := leaf.Verify(x509.VerifyOptions{DNSName: host, Intermediates: inter})
	if err == nil {
		return nil
	}
	pinFix := "if you trust this server, pin its certificate: --cert-hash " + hash
	var (
		unknown  x509.UnknownAuthorityError
		invalid  x509.CertificateInvalidError
		hostname x509.HostnameError
	)
	switch {
	case errors.As(err, &unknown) && selfSigned(leaf):
		return fail(checklist.Connection, pinFix, "the certificate is self-signed (%s): %w", subjectOf(leaf), err)
	case errors.As(err, &unknown):
		return fail(checklist.Connection, "install the issuing authority, or "+pinFix, "the certificate's authority is not trusted: %w", err)
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return fail(checklist.Connection, "renew the server's certificate (valid "+leaf.NotBefore.UTC().Format(time.DateOnly)+" to "+leaf.NotAfter.UTC().Format(time.DateOnly)+")", "the certificate is expired or not yet valid: %w", err)
	case errors.As(err, &hostname):
		return fail(checklist.Connection, "connect by a name the certificate carries, or "+pinFix, "the certificate is not for %s: %w", host, err)
	}
	return fail(checklist.Connection, pinFix, "the certificate does not verify: %w", err)
}

// selfSigned reports whether c signed itself.
func selfSigned(c *x509.Certificate) bool {
	return bytes.Equal(c.RawIssuer, c.RawSubject) && c.CheckSignature(c.SignatureAlgorithm, c.RawTBSCertificate, c.Signature) == nil
}

// tlsOptions verify as the real transport does: the pins of --cert-hash,
// or no verification with --insecure (which wins over a pin here).
func (w *walk) tlsOptions() tlsconf.Options {
	o := tlsconf.Options{ServerName: w.cfg.URL.Hostname(), Insecure: w.cfg.Insecure}
	if !w.cfg.Insecure {
		o.CertHashes = w.cfg.CertHashes
	}
	return o
}

// clientTLS is the TLS configuration of the probes after the TLS step. A
// malformed pin leaves it nil: the TLS step has failed on it already.
func (w *walk) clientTLS() *tls.Config {
	cfg, _ := tlsconf.Config(w.tlsOptions(), nil)
	return cfg
}
