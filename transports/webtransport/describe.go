package webtransport

import "github.com/mcpscope/mcpscope/client"

// Describe declares what MCP-Flow does differently from standard MCP: the
// control stream opens with initialize, which offers Config.Encodings and
// whose result settles the encoding of what follows, requests are
// cancelled with $/cancel, the link reports its state and negotiated
// encoding, and the control messages ignored to stay within limits are
// counted.
func (t *Transport) Describe() client.Traits {
	return client.Traits{
		InitializeOnly: true,
		Cancel:         t.CancelRequest,
		Link:           t.LinkState,
		Tally: func() client.Tally {
			ig := t.Ignored()
			return client.Tally{IgnoredStreamErrors: ig.StreamErrors, IgnoredShutdowns: ig.Shutdowns}
		},
		Encodings:  t.cfg.Encodings,
		Negotiated: t.applyNegotiation,
		Fail:       t.fail,
	}
}
