package mcphttp

import "github.com/mcpscope/mcpscope/client"

// Describe declares what the HTTP family does differently from standard
// MCP: closing, giving up and forgetting a request's POST, its link,
// the Mcp-Param headers it carries, the sessions the server forgets, the
// answers it could not send, and, for seed 004's dialect, no handshake.
func (t *Transport) Describe() client.Traits {
	return client.Traits{
		HandshakeFree: t.cfg.Mode == ModeTools,
		Abort:         t.AbortRequest,
		Cancelled:     t.CancelNotified,
		Forget:        t.ForgetRequest,
		Link:          t.LinkState,
		MirrorsParams: true,
		Restarts:      t.takeRestart,
		Tally:         func() client.Tally { return client.Tally{UnsentAnswers: t.UnsentAnswers()} },
	}
}
