package flow

import (
	"crypto/tls"
	"fmt"
	"time"
)

// certValidity is the lifetime of a generated certificate: under the 14
// days WebTransport's serverCertificateHashes accepts.
const certValidity = 13 * 24 * time.Hour

// loadCert reads a PEM certificate and key.
func loadCert(certFile, keyFile string) (tls.Certificate, error) {
	if certFile == "" || keyFile == "" {
		return tls.Certificate{}, fmt.Errorf("give both a certificate and a key file, or neither")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("loading the certificate: %w", err)
	}
	return cert, nil
}
