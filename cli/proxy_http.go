package cli

import (
	"context"
	"fmt"
	"net"
	nethttp "net/http"
	"net/url"

	"github.com/mcpscope/mcpscope/proxy/httprelay"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// http serves a local endpoint on --listen that relays to the remote
// server at target (Streamable HTTP and legacy HTTP+SSE).
func (r *proxyRun) http(ctx context.Context, target string) error {
	up, header, client, err := r.upstream(target)
	if err != nil {
		return err
	}
	relay, err := httprelay.New(httprelay.Options{Session: r.sess, Upstream: up, Client: client, Header: header, NoRedact: r.f.noRedact})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", r.f.listen)
	if err != nil {
		return withExit(ExitConnection, fmt.Errorf("--listen %s: %w", r.f.listen, err))
	}
	shown := up.String()
	if u, err := url.Parse(target); err == nil && httpconf.IsUnix(u) {
		shown = target // the socket, not the request URL on it
	}
	fmt.Fprintf(r.cmd.ErrOrStderr(), "mcpscope proxy: listening on %s → %s\n", relay.LocalURL(ln.Addr()), redactURL(shown))
	return relay.Serve(ctx, ln)
}

// upstream reads what reaching the remote server takes: its URL, the
// --header values and a client trusting it as --cert-hash and --insecure
// say. A unix:// target's requests go to http://localhost/PATH over its
// socket.
func (r *proxyRun) upstream(target string) (*url.URL, nethttp.Header, *nethttp.Client, error) {
	unix, err := unixUpstream(target, r.f.certHash != "" || r.f.insecure)
	if err != nil {
		return nil, nil, nil, err
	}
	if unix != nil {
		target = unix.Request.String()
	}
	up, err := httprelay.ParseUpstream(target)
	if err != nil {
		return nil, nil, nil, usagef("%q: %v", target, err)
	}
	header, err := httprelay.ParseHeaders(r.f.headers)
	if err != nil {
		return nil, nil, nil, usagef("%v", err)
	}
	var hashes []string
	if r.f.certHash != "" {
		hashes = []string{r.f.certHash}
	}
	client, err := httprelay.NewClient(up, httprelay.TLS{CertHashes: hashes, Insecure: r.f.insecure})
	if err != nil {
		return nil, nil, nil, usagef("%v", err)
	}
	if unix != nil {
		tr := client.Transport.(*nethttp.Transport)
		tr.Proxy, tr.DialContext = nil, unix.Dial
	}
	return up, header, client, nil
}

// unixUpstream reads a unix:// target (nil, nil for another); TLS flags
// do not apply to one.
func unixUpstream(target string, tls bool) (*httpconf.UnixEndpoint, error) {
	u, err := url.Parse(target)
	if err != nil || !httpconf.IsUnix(u) {
		return nil, nil
	}
	ep, err := httpconf.ParseUnix(u)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if tls {
		return nil, usagef("a unix:// server speaks plain HTTP on its socket: --cert-hash and --insecure do not apply")
	}
	return &ep, nil
}
