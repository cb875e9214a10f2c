package flowtest

import (
	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// Transport returns an unconnected MCP-Flow transport to d that pins the
// demo's certificate and reports every frame to sink: the link tests of
// packages that must not import a concrete transport themselves.
func (d *Demo) Transport(sink capture.Sink) (client.Transport, error) {
	return webtransport.New(webtransport.Config{URL: d.URL(), CertHashes: []string{d.CertHash()}, Sink: sink})
}
