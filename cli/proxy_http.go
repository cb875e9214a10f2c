package cli

import (
	"context"
	"fmt"
	"net"
	nethttp "net/http"
	"net/url"

	"github.com/mcpscope/mcpscope/proxy/httprelay"
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
	fmt.Fprintf(r.cmd.ErrOrStderr(), "mcpscope proxy: listening on %s → %s\n", relay.LocalURL(ln.Addr()), redactURL(up.String()))
	return relay.Serve(ctx, ln)
}

// upstream reads what reaching the remote server takes: its URL, the
// --header values and a client trusting it as --cert-hash and --insecure
// say.
func (r *proxyRun) upstream(target string) (*url.URL, nethttp.Header, *nethttp.Client, error) {
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
	return up, header, client, nil
}
