package cli

import (
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// newWSTransport builds the WebSocket transport for a ws:// or wss://
// target: an MCP session with the subprotocol "mcp" (--transport ws, the
// default) or seed 004's tool frames (--transport tools-ws).
func newWSTransport(t Target, o TransportOptions) (client.Transport, error) {
	if t.URL == nil || (t.URL.Scheme != "ws" && t.URL.Scheme != "wss") {
		return nil, usagef("the %s transport needs a ws:// or wss:// URL", t.Transport)
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
	cfg := ws.Config{
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
	case "tools-ws":
		cfg.Mode = ws.ModeTools
	case "gateway":
		cfg.Mode = ws.ModeGateway
	}
	if o.CertHash != "" {
		cfg.CertHashes = strings.Split(o.CertHash, ",")
	}
	tr, err := ws.New(cfg)
	if err != nil {
		return nil, usagef("%w", err)
	}
	if o.Insecure && o.Warn != nil {
		o.Warn(insecureWarning)
	}
	return tr, nil
}
