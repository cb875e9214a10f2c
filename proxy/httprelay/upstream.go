package httprelay

import (
	"errors"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// TLS says how the relay trusts the remote server: verified by default,
// pinned by CertHashes, or not at all when Insecure.
type TLS struct {
	CertHashes []string
	Insecure   bool
}

// NewClient returns the HTTP client that reaches upstream: TLS as tls
// says, no overall timeout (a stream lives as long as its host reads
// it), no compression asked (the capture shows the bytes as sent) and no
// redirect followed (a 3xx goes back to the host as the server sent it).
func NewClient(upstream *url.URL, tls TLS) (*http.Client, error) {
	tc, err := tlsconf.Config(tlsconf.Options{ServerName: upstream.Hostname(), CertHashes: tls.CertHashes, Insecure: tls.Insecure}, nil)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       tc,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true,
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, nil
}

// ParseUpstream checks the remote server's URL: http or https, with a
// host.
func ParseUpstream(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, errors.New("the server's URL is http:// or https:// with a host")
	}
	return u, nil
}

// hopByHop are the headers of one connection (RFC 9110 §7.6.1), not of
// the message: a proxy does not forward them. Accept-Encoding joins them:
// the relay asks the server for identity bodies so that it can read each
// event, and a host always accepts those.
var hopByHop = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Accept-Encoding",
}

// forwardHeader copies the headers of one message, those of its
// connection left out (and those its Connection header names).
func forwardHeader(dst, src http.Header) {
	drop := map[string]bool{}
	for _, h := range hopByHop {
		drop[h] = true
	}
	for _, v := range src.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			drop[textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name))] = true
		}
	}
	for k, vs := range src {
		if drop[textproto.CanonicalMIMEHeaderKey(k)] {
			continue
		}
		dst[k] = append(dst[k], vs...)
	}
}

// ParseHeaders reads --header values, "K: V" each.
func ParseHeaders(lines []string) (http.Header, error) {
	h := http.Header{}
	for _, l := range lines {
		k, v, ok := strings.Cut(l, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\r\n") || strings.ContainsAny(v, "\r\n") {
			return nil, errors.New("--header " + quote(l) + " is not 'Name: value'")
		}
		h.Add(k, strings.TrimSpace(v))
	}
	return h, nil
}

// addDefaults adds each header of def that h does not have: what --header
// gives a request the host did not give it.
func addDefaults(h, def http.Header) {
	for k, vs := range def {
		if h.Get(k) == "" {
			h[k] = append([]string(nil), vs...)
		}
	}
}

// maxBody is the largest message the relay reads whole: a POST body, a
// JSON answer, an SSE event. A longer one is carried on as it is read,
// not held (long.go).
const maxBody = flow.DefaultMaxControlFrame

func quote(s string) string { return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\"" }
