package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// ProgressNotificationParams are the params of notifications/progress. The
// token is the one the request put in _meta.progressToken (a string or an
// integer, like an ID).
type ProgressNotificationParams struct {
	ProgressToken jsonrpc.ID `json:"progressToken"`
	Progress      float64    `json:"progress"`
	Total         *float64   `json:"total,omitempty"`
	Message       string     `json:"message,omitempty"`
}

// CancelledNotificationParams are the params of notifications/cancelled.
type CancelledNotificationParams struct {
	RequestID jsonrpc.ID `json:"requestId"`
	Reason    string     `json:"reason,omitempty"`
}

// LoggingMessageParams are the params of notifications/message.
type LoggingMessageParams struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data"`
}

// ResourceUpdatedParams are the params of notifications/resources/updated.
type ResourceUpdatedParams struct {
	URI string `json:"uri"`
}

// SubscriptionOf returns the subscription a notification's params are
// tagged with (2026-07-28): the id of the subscriptions/listen request
// whose stream carries it, which _meta names under MetaSubscriptionID.
// Params that name none, or do not decode, report false.
func SubscriptionOf(params json.RawMessage) (jsonrpc.ID, bool) {
	if !bytes.Contains(params, []byte("subscriptionId")) {
		return jsonrpc.ID{}, false // most notifications: no decoding (the key may come with its / escaped)
	}
	var p struct {
		Meta struct {
			ID *jsonrpc.ID `json:"io.modelcontextprotocol/subscriptionId"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || p.Meta.ID == nil || p.Meta.ID.IsNull() {
		return jsonrpc.ID{}, false
	}
	return *p.Meta.ID, true
}
