package mcp

import "encoding/json"

// Methods of interactive sessions (seed 002, "Protocol Messages").
const (
	// MethodInteractionStart starts an interactive session (client → server).
	MethodInteractionStart = "interaction.start"
	// MethodInteractionRespond answers the current prompt (client → server).
	MethodInteractionRespond = "interaction.respond"
	// MethodInteractionCancel cancels a session (client → server).
	MethodInteractionCancel = "interaction.cancel"
	// MethodInteractionGetState reads a session's state (client → server).
	MethodInteractionGetState = "interaction.getState"
	// MethodInteractionPrompt sends a prompt to the user (server → client),
	// answered with an InteractionAck.
	MethodInteractionPrompt = "interaction.prompt"
	// MethodInteractionContinue reports progress and may carry the next
	// prompt (server → client), answered with an InteractionAck.
	MethodInteractionContinue = "interaction.continue"
	// MethodInteractionComplete finalizes a session (server → client),
	// answered with an InteractionCompleteResult.
	MethodInteractionComplete = "interaction.complete"
	// MethodCapabilities asks whether the server is interactive
	// (client → server, "Capability Discovery").
	MethodCapabilities = "capabilities"
)

// PromptType is the kind of input a prompt asks for.
type PromptType string

// Prompt types of seed 002 ("PromptType").
const (
	PromptText    PromptType = "text"    // free text
	PromptChoice  PromptType = "choice"  // one (or, with Multiple, several) of Choices
	PromptConfirm PromptType = "confirm" // yes or no
	PromptNumber  PromptType = "number"  // a number
	PromptDate    PromptType = "date"    // a date (or date-time, see Format)
	PromptFile    PromptType = "file"    // a file's content
	PromptCustom  PromptType = "custom"  // any JSON value, described by Schema
)

// InteractionPrompt is what a server asks the user (seed 002, Appendix A).
//
// Multiple, Format, Schema, Accept, Error and Suggestion are mcpscope
// extensions that servers may omit: Multiple lets a choice prompt take
// several values, answered as a JSON array; Format is "date" (the default)
// or "date-time" for a date prompt and "integer" for a number prompt; Schema
// is the JSON Schema the value of a custom prompt must match; Accept lists
// the file extensions a file prompt allows (e.g. ".csv"); Error and
// Suggestion, on a prompt sent again after a refused answer, say why the
// answer was refused and how to answer instead.
type InteractionPrompt struct {
	Type         PromptType         `json:"type"`
	Message      string             `json:"message"`
	Placeholder  string             `json:"placeholder,omitempty"`
	DefaultValue json.RawMessage    `json:"defaultValue,omitempty"`
	Choices      []PromptChoiceItem `json:"choices,omitempty"`
	Validation   *PromptValidation  `json:"validation,omitempty"`

	Multiple   bool            `json:"multiple,omitempty"`
	Format     string          `json:"format,omitempty"`
	Schema     json.RawMessage `json:"schema,omitempty"`
	Accept     []string        `json:"accept,omitempty"`
	Error      string          `json:"error,omitempty"`
	Suggestion string          `json:"suggestion,omitempty"`
}

// PromptChoiceItem is one option of a choice prompt: its value (any JSON),
// and how to show it. (The contract's name PromptChoice is taken by the
// prompt type constant, so the option has this name.)
type PromptChoiceItem struct {
	Value       json.RawMessage `json:"value"`
	Label       string          `json:"label,omitempty"`
	Description string          `json:"description,omitempty"`
}

// PromptValidation constrains an answer. Min and Max bound the length of a
// text answer and the value of a number answer; the seed gives no bounds for
// dates, so they are ignored there.
type PromptValidation struct {
	Required bool     `json:"required,omitempty"`
	Pattern  string   `json:"pattern,omitempty"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
}

// InteractionProgress tells how far a session has come ("Step 2 of 5").
type InteractionProgress struct {
	Current float64 `json:"current"`
	Total   float64 `json:"total,omitempty"`
	Message string  `json:"message,omitempty"`
}

// InteractionStartParams are the params of interaction.start. Timeout is in
// milliseconds.
type InteractionStartParams struct {
	ToolName      string          `json:"toolName"`
	InitialParams json.RawMessage `json:"initialParams,omitempty"`
	Context       json.RawMessage `json:"context,omitempty"`
	Timeout       int64           `json:"timeout,omitempty"`
}

// InteractionStartResult is the result of interaction.start. ExpiresAt
// (milliseconds since the Unix epoch) is an mcpscope extension.
type InteractionStartResult struct {
	SessionID     string               `json:"sessionId"`
	State         InteractionState     `json:"state"`
	InitialPrompt *InteractionPrompt   `json:"initialPrompt,omitempty"`
	Progress      *InteractionProgress `json:"progress,omitempty"`
	ExpiresAt     int64                `json:"expiresAt,omitempty"`
}

// InteractionPromptParams are the params of interaction.prompt. ExpiresAt
// (milliseconds since the Unix epoch) is an mcpscope extension.
type InteractionPromptParams struct {
	SessionID string               `json:"sessionId"`
	Prompt    InteractionPrompt    `json:"prompt"`
	Progress  *InteractionProgress `json:"progress,omitempty"`
	ExpiresAt int64                `json:"expiresAt,omitempty"`
}

// InteractionAck is the client's answer to interaction.prompt and
// interaction.continue.
type InteractionAck struct {
	Acknowledged bool `json:"acknowledged"`
}

// InteractionResponse is the user's answer to a prompt. Timestamp is in
// milliseconds since the Unix epoch.
type InteractionResponse struct {
	Value     json.RawMessage `json:"value"`
	Timestamp int64           `json:"timestamp"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// InteractionRespondParams are the params of interaction.respond.
type InteractionRespondParams struct {
	SessionID string              `json:"sessionId"`
	Response  InteractionResponse `json:"response"`
}

// InteractionValidation is the server's verdict on an answer.
type InteractionValidation struct {
	Valid      bool   `json:"valid"`
	Error      string `json:"error,omitempty"`
	Suggestion string `json:"suggestion,omitempty"`
}

// InteractionRespondResult is the result of interaction.respond; Accepted
// false means the user answers the prompt again.
type InteractionRespondResult struct {
	Accepted   bool                   `json:"accepted"`
	Validation *InteractionValidation `json:"validation,omitempty"`
}

// InteractionContinueParams are the params of interaction.continue. A
// timeout warning is a continue with Message (e.g. "session expires in
// 10 s") and ExpiresAt (milliseconds since the Unix epoch, an mcpscope
// extension) and no NextPrompt.
type InteractionContinueParams struct {
	SessionID  string               `json:"sessionId"`
	NextPrompt *InteractionPrompt   `json:"nextPrompt,omitempty"`
	Progress   *InteractionProgress `json:"progress,omitempty"`
	Message    string               `json:"message,omitempty"`
	ExpiresAt  int64                `json:"expiresAt,omitempty"`
}

// InteractionCompleteParams are the params of interaction.complete.
type InteractionCompleteParams struct {
	SessionID string          `json:"sessionId"`
	Result    json.RawMessage `json:"result,omitempty"`
	Summary   string          `json:"summary,omitempty"`
}

// InteractionCompleteResult is the client's answer to interaction.complete.
type InteractionCompleteResult struct {
	Success     bool            `json:"success"`
	FinalResult json.RawMessage `json:"finalResult,omitempty"`
}

// InteractionCancelParams are the params of interaction.cancel.
type InteractionCancelParams struct {
	SessionID string `json:"sessionId"`
	Reason    string `json:"reason,omitempty"`
}

// InteractionCancelResult is the result of interaction.cancel.
type InteractionCancelResult struct {
	Cancelled bool `json:"cancelled"`
}

// InteractionGetStateParams are the params of interaction.getState.
type InteractionGetStateParams struct {
	SessionID string `json:"sessionId"`
}

// InteractionMetadata describes a session; times are in milliseconds since
// the Unix epoch.
type InteractionMetadata struct {
	CreatedAt      int64  `json:"createdAt"`
	LastActivityAt int64  `json:"lastActivityAt"`
	ToolName       string `json:"toolName"`
}

// InteractionTurn is one prompt and its answer in a session's history.
type InteractionTurn struct {
	TurnID    int             `json:"turnId"`
	Prompt    json.RawMessage `json:"prompt"`
	Response  json.RawMessage `json:"response"`
	Timestamp int64           `json:"timestamp"`
}

// InteractionStateResult is the result of interaction.getState.
type InteractionStateResult struct {
	SessionID       string              `json:"sessionId"`
	State           InteractionState    `json:"state"`
	Metadata        InteractionMetadata `json:"metadata"`
	History         []InteractionTurn   `json:"history"`
	CurrentPrompt   *InteractionPrompt  `json:"currentPrompt,omitempty"`
	AccumulatedData json.RawMessage     `json:"accumulatedData,omitempty"`
}

// InteractiveCapabilities is the result of `capabilities` ("Capability
// Negotiation"). The initialize result may instead carry
// capabilities.interactive = {version, features}.
type InteractiveCapabilities struct {
	Interactive bool            `json:"interactive"`
	Version     string          `json:"version,omitempty"`
	Features    map[string]bool `json:"features,omitempty"`
}
