package cli

import (
	"strings"

	"github.com/mcpscope/mcpscope/client"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// newHTTPTransport builds the HTTP family's transport for an http:// or
// https:// target: Streamable HTTP falling back to legacy HTTP+SSE
// (--transport http, the default), or legacy HTTP+SSE alone (--transport
// sse).
func newHTTPTransport(t Target, o TransportOptions) (client.Transport, error) {
	if t.URL == nil {
		return nil, usagef("the %s transport needs an http:// or https:// URL", t.Transport)
	}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--encoding", o.Encoding != ""},
		{"--stream-out", o.StreamOut != ""},
	} {
		if f.set {
			return nil, usagef("%s applies to MCP-Flow, not to the %s transport", f.name, t.Transport)
		}
	}
	hdr, err := parseHeaders(o.Headers)
	if err != nil {
		return nil, err
	}
	cfg := mcphttp.Config{
		URL:          t.URL.String(),
		Header:       hdr,
		Origin:       o.Origin,
		Insecure:     o.Insecure,
		KeyLogFile:   o.KeyLog,
		MaxFrameSize: o.MaxFrameSize,
		Sink:         o.Sink,
		NoRedact:     o.NoRedact,
		Warn:         o.Warn,
	}
	if t.Transport == "sse" {
		cfg.Mode = mcphttp.ModeLegacySSE
	}
	if o.CertHash != "" {
		cfg.CertHashes = strings.Split(o.CertHash, ",")
	}
	tr, err := mcphttp.New(cfg)
	if err != nil {
		return nil, usagef("%w", err)
	}
	if o.Insecure && o.Warn != nil {
		o.Warn(insecureWarning)
	}
	return tr, nil
}
