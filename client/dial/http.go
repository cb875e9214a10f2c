package dial

import (
	"github.com/mcpscope/mcpscope/client"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// newHTTP builds the HTTP family's transport for an http://, https://
// or unix:// target (a unix:// one reaches its server over the socket): Streamable HTTP falling back to legacy HTTP+SSE
// (--transport http, the default), legacy HTTP+SSE alone (--transport
// sse), or seed 004's POST dialect (--transport tools-http).
func newHTTP(t Endpoint, o Options) (client.Transport, error) {
	if t.URL == nil {
		return nil, optionErrorf("the %s transport needs an http:// or https:// URL", t.Transport)
	}
	r, err := RemoteOf(o, t.Transport)
	if err != nil {
		return nil, err
	}
	cfg := mcphttp.Config{
		URL:    t.URL.String(),
		Client: r.HTTPClient(o),
		Sink:   o.Sink,
	}
	if httpconf.IsUnix(t.URL) {
		ep, err := httpconf.ParseUnix(t.URL)
		if err != nil {
			return nil, optionErrorf("%w", err)
		}
		cfg.URL, cfg.Socket = ep.Request.String(), ep.Socket
	}
	switch t.Transport {
	case "sse":
		cfg.Mode = mcphttp.ModeLegacySSE
	case "tools-http":
		cfg.Mode = mcphttp.ModeTools
	}
	tr, err := mcphttp.New(cfg)
	if err != nil {
		return nil, optionErrorf("%w", err)
	}
	warnInsecure(o)
	return tr, nil
}
