package cli

import (
	"strings"

	"github.com/mcpscope/mcpscope/client"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// newHTTPTransport builds the HTTP family's transport for an http:// or
// https:// target: Streamable HTTP falling back to legacy HTTP+SSE
// (--transport http, the default), legacy HTTP+SSE alone (--transport
// sse), or seed 004's POST dialect (--transport tools-http).
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
	switch t.Transport {
	case "sse":
		cfg.Mode = mcphttp.ModeLegacySSE
	case "tools-http":
		cfg.Mode = mcphttp.ModeTools
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
