package mcp

import "encoding/json"

// Root is a directory or file the client exposes to the server.
type Root struct {
	URI  string          `json:"uri"`
	Name string          `json:"name,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// ListRootsResult is the client's answer to roots/list.
type ListRootsResult struct {
	Roots []Root `json:"roots"`
}

// Elicitation modes.
const (
	ElicitModeForm = "form"
	ElicitModeURL  = "url"
)

// Elicitation actions.
const (
	ElicitActionAccept  = "accept"
	ElicitActionDecline = "decline"
	ElicitActionCancel  = "cancel"
)

// ElicitRequestParams are the params of elicitation/create. Form mode
// (the default when Mode is empty) carries RequestedSchema; URL mode carries
// URL and ElicitationID.
type ElicitRequestParams struct {
	Mode            string          `json:"mode,omitempty"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
	Meta            json.RawMessage `json:"_meta,omitempty"`
}

// EffectiveMode returns Mode, or form when it is empty.
func (p *ElicitRequestParams) EffectiveMode() string {
	if p.Mode == "" {
		return ElicitModeForm
	}
	return p.Mode
}

// ElicitResult is the client's answer to elicitation/create. Content is
// present only with action accept in form mode.
type ElicitResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// ElicitationCompleteParams are the params of
// notifications/elicitation/complete (URL mode finished).
type ElicitationCompleteParams struct {
	ElicitationID string `json:"elicitationId"`
}

// SamplingMessage is one message of a sampling conversation. Content is a
// content block or, since 2025-11-25, an array of them.
type SamplingMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// CreateMessageParams are the params of sampling/createMessage.
type CreateMessageParams struct {
	Messages         []SamplingMessage `json:"messages"`
	ModelPreferences json.RawMessage   `json:"modelPreferences,omitempty"`
	SystemPrompt     string            `json:"systemPrompt,omitempty"`
	IncludeContext   string            `json:"includeContext,omitempty"`
	Temperature      *float64          `json:"temperature,omitempty"`
	MaxTokens        int               `json:"maxTokens"`
	StopSequences    []string          `json:"stopSequences,omitempty"`
	Metadata         json.RawMessage   `json:"metadata,omitempty"`
	Tools            json.RawMessage   `json:"tools,omitempty"`
	ToolChoice       json.RawMessage   `json:"toolChoice,omitempty"`
	Meta             json.RawMessage   `json:"_meta,omitempty"`
}

// CreateMessageResult is the client's answer to sampling/createMessage.
// Content is one content block (or an array of them with tool use).
type CreateMessageResult struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason,omitempty"`
}
