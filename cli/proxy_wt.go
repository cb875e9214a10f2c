package cli

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strings"

	"github.com/mcpscope/mcpscope/proxy/wtrelay"
)

// wt relays the MCP-Flow sessions of hosts on --listen (UDP) to target
// (see proxy.go), presenting the proxy's own certificate: --cert/--key,
// or a fresh self-signed one whose hash is printed for the host to pin.
func (r *proxyRun) wt(ctx context.Context, target string) error {
	cert, err := r.proxyCert()
	if err != nil {
		return err
	}
	var hashes []string
	if r.f.certHash != "" {
		hashes = strings.Split(r.f.certHash, ",")
	}
	relay, err := wtrelay.New(r.sess, wtrelay.Options{
		Upstream: target, Cert: cert, CertHashes: hashes, Insecure: r.f.insecure, NoRedact: r.f.noRedact,
	})
	if err != nil {
		return usagef("%v", err)
	}
	addr, err := net.ResolveUDPAddr("udp", r.f.listen)
	if err != nil {
		return usagef("--listen %s: %v", r.f.listen, err)
	}
	udp, err := net.ListenUDP("udp", addr)
	if err != nil {
		return withExit(ExitConnection, fmt.Errorf("listening on %s: %w", r.f.listen, err))
	}
	defer udp.Close()
	fmt.Fprintf(r.cmd.ErrOrStderr(), "mcpscope proxy: listening on %s for %s; pin the proxy's certificate with --cert-hash %s\n",
		relay.LocalURL(udp.LocalAddr()), redactURL(target), relay.CertHash())
	return relay.Serve(ctx, udp)
}

// proxyCert is the certificate the wt:// proxy presents: --cert and --key,
// or a fresh self-signed one.
func (r *proxyRun) proxyCert() (tls.Certificate, error) {
	switch {
	case r.f.certFile == "" && r.f.keyFile == "":
		return wtrelay.SelfSigned()
	case r.f.certFile == "" || r.f.keyFile == "":
		return tls.Certificate{}, usagef("--cert and --key go together")
	}
	cert, err := tls.LoadX509KeyPair(r.f.certFile, r.f.keyFile)
	if err != nil {
		return tls.Certificate{}, usagef("--cert/--key: %v", err)
	}
	return cert, nil
}
