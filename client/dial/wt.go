package dial

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// defaultFlowPath is the path of an MCP-Flow endpoint when the URL names none.
const defaultFlowPath = "/mcp"

// insecureWarning is printed on stderr whenever --insecure is used.
const insecureWarning = "WARNING: --insecure: the server certificate is NOT verified; anyone on the network path " +
	"can read and change this session. Pin a self-signed certificate with --cert-hash sha256:HEX instead."

// newWT builds the MCP-Flow (WebTransport) transport for a wt://
// or https:// target (https with --transport wt).
func newWT(t Endpoint, o Options) (client.Transport, error) {
	u, err := flowURL(t.URL)
	if err != nil {
		return nil, err
	}
	r, err := RemoteOf(o, "")
	if err != nil {
		return nil, err
	}
	cfg := webtransport.Config{
		URL:          u,
		Insecure:     o.Insecure,
		Origin:       o.Origin,
		Header:       r.Header,
		CertHashes:   r.CertHashes,
		NoRedact:     o.NoRedact,
		KeyLogFile:   o.KeyLog,
		MaxFrameSize: o.MaxFrameSize,
		Sink:         o.Sink,
		Conn:         "wt",
	}
	if o.Encoding != "" {
		cfg.Encodings = []string{o.Encoding}
	}
	if o.StreamOut != "" {
		cfg.StreamSink = webtransport.FileStreamSink(o.StreamOut)
	}
	tr, err := webtransport.New(cfg)
	if err != nil {
		return nil, optionErrorf("%w", err)
	}
	warnInsecure(o)
	return tr, nil
}

// flowURL turns a wt:// or https:// target into the https URL of the
// MCP-Flow endpoint, /mcp when it names no path.
func flowURL(in *url.URL) (string, error) {
	if in == nil {
		return "", optionErrorf("the wt transport needs a URL: wt://host:port/mcp")
	}
	u := *in
	switch strings.ToLower(u.Scheme) {
	case "wt", "https":
		u.Scheme = "https"
	default:
		return "", optionErrorf("the wt transport needs a wt:// or https:// URL, not %s://", u.Scheme)
	}
	if u.Path == "" {
		u.Path = defaultFlowPath
	}
	return u.String(), nil
}

// ParseHeaders parses --header 'K: V' values.
func ParseHeaders(values []string) (http.Header, error) {
	if len(values) == 0 {
		return nil, nil
	}
	hdr := make(http.Header, len(values))
	for _, v := range values {
		k, val, ok := strings.Cut(v, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, optionErrorf("--header %q is not of the form 'Name: value'", v)
		}
		hdr.Add(k, strings.TrimSpace(val))
	}
	return hdr, nil
}
