package client

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// WithMeta adds members to the params._meta of each request of the call
// (every round of it): a member the params already hold under _meta is
// replaced, and the members the era adds (the 2026-07-28 triple) give way
// to these. Each value must be valid JSON.
func WithMeta(members ...jsonrpc.Member) CallOption {
	return func(c *callConfig) { c.meta = append(c.meta, members...) }
}

// WithNotificationsFirst makes Call return only once the notifications
// read before the result were handed to every subscriber (Subscribe), so
// that what they print comes before the result.
func WithNotificationsFirst() CallOption {
	return func(c *callConfig) { c.notesFirst = true }
}

// userMeta adds the call's WithMeta members to params.
func userMeta(params json.RawMessage, cfg *callConfig) (json.RawMessage, error) {
	if len(cfg.meta) == 0 {
		return params, nil
	}
	return withMeta(params, cfg.meta, true)
}
