package cli

import (
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
	r, err := remoteOf(o, t.Transport)
	if err != nil {
		return nil, err
	}
	cfg := mcphttp.Config{
		URL:    t.URL.String(),
		Client: r.httpClient(o),
		Sink:   o.Sink,
	}
	switch t.Transport {
	case "sse":
		cfg.Mode = mcphttp.ModeLegacySSE
	case "tools-http":
		cfg.Mode = mcphttp.ModeTools
	}
	tr, err := mcphttp.New(cfg)
	if err != nil {
		return nil, usagef("%w", err)
	}
	warnInsecure(o)
	return tr, nil
}
