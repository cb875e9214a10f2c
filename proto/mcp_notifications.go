package proto

import "encoding/json"

// ProgressNotificationParams are the params of notifications/progress. The
// token is the one the request put in _meta.progressToken (a string or an
// integer, like an ID).
type ProgressNotificationParams struct {
	ProgressToken ID       `json:"progressToken"`
	Progress      float64  `json:"progress"`
	Total         *float64 `json:"total,omitempty"`
	Message       string   `json:"message,omitempty"`
}

// CancelledNotificationParams are the params of notifications/cancelled.
type CancelledNotificationParams struct {
	RequestID ID     `json:"requestId"`
	Reason    string `json:"reason,omitempty"`
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
