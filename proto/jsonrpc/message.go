package jsonrpc

import (
	"encoding/json"
	"fmt"
)

// Version is the only JSON-RPC version mcpscope speaks.
const Version = "2.0"

// Kind says what a JSON-RPC message is.
type Kind uint8

// Kinds of JSON-RPC message.
const (
	KindInvalid Kind = iota
	KindRequest
	KindNotification
	KindResult
	KindError
)

// String names the kind.
func (k Kind) String() string {
	names := [...]string{"invalid", "request", "notification", "result", "error"}
	if int(k) < len(names) {
		return names[k]
	}
	return "invalid"
}

// Message is one JSON-RPC 2.0 message. Unknown fields are tolerated and kept
// in Raw, which holds the exact body bytes the message was decoded from (nil
// for a message built locally and not yet encoded). Params, Result and
// Error.Data of a decoded message are slices of its body.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`

	// Raw is the exact body this message was decoded from (no framing).
	Raw []byte `json:"-"`

	// Violation, when set, says the body claims an id but breaks the
	// JSON-RPC envelope (an *EnvelopeError, or a transport's reason such
	// as a line over the size limit). Such a message holds only ID (the
	// first id read), Raw and Violation; its Kind is KindInvalid. A
	// transport delivers it so that the request it answers fails at once.
	Violation error `json:"-"`
}

// Kind classifies the message.
func (m *Message) Kind() Kind {
	switch {
	case m.Method != "" && m.ID != nil && !m.ID.IsNull():
		return KindRequest
	case m.Method != "":
		return KindNotification
	case m.Error != nil:
		return KindError
	case m.Result != nil:
		return KindResult
	}
	return KindInvalid
}

// IsResponse reports whether the message answers a request.
func (m *Message) IsResponse() bool {
	k := m.Kind()
	return k == KindResult || k == KindError
}

// NewRequest builds a request with params marshalled to JSON.
func NewRequest(id ID, method string, params any) (*Message, error) {
	p, err := MarshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s params: %w", method, err)
	}
	return &Message{JSONRPC: Version, ID: &id, Method: method, Params: p}, nil
}

// NewNotification builds a notification with params marshalled to JSON.
func NewNotification(method string, params any) (*Message, error) {
	p, err := MarshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s params: %w", method, err)
	}
	return &Message{JSONRPC: Version, Method: method, Params: p}, nil
}

// NewResult builds a successful response.
func NewResult(id ID, result any) (*Message, error) {
	r, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	return &Message{JSONRPC: Version, ID: &id, Result: r}, nil
}

// NewErrorResponse builds an error response.
func NewErrorResponse(id ID, code int, message string, data any) *Message {
	e := &Error{Code: code, Message: message}
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return &Message{JSONRPC: Version, ID: &id, Error: e}
}

// MarshalParams turns request params into JSON: nil stays nil, raw JSON
// (json.RawMessage or []byte) is kept as is, anything else is marshalled.
func MarshalParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return json.RawMessage(p), nil
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("params cannot be encoded as JSON: %w", err)
	}
	return b, nil
}

// Error is the error object of a JSON-RPC error response.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error renders the code and message.
func (e *Error) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// Validate checks a built message against the JSON-RPC 2.0 envelope
// rules, the same CheckEnvelope every decoder applies (its members are
// taken as present when set), and returns nil or an *EnvelopeError.
func (m *Message) Validate() error {
	var seen Members
	for _, present := range []struct {
		name string
		set  bool
	}{
		{"jsonrpc", m.JSONRPC != ""}, {"id", m.ID != nil}, {"method", m.Method != ""},
		{"params", m.Params != nil}, {"result", m.Result != nil}, {"error", m.Error != nil},
	} {
		if present.set {
			seen.Add(present.name)
		}
	}
	if e := CheckEnvelope(m, &seen); e != nil {
		return e
	}
	return nil
}

// EncodeJSON returns the compact JSON body of the message.
func (m *Message) EncodeJSON() ([]byte, error) {
	return m.AppendJSON(nil)
}

// Describe names a message in an error or a note: "tools/call (id 3)",
// "notifications/cancelled", "the answer to id 3".
func (m *Message) Describe() string {
	switch {
	case m.Method != "" && m.ID != nil:
		return fmt.Sprintf("%s (id %s)", m.Method, m.ID)
	case m.Method != "":
		return m.Method
	case m.ID != nil:
		return fmt.Sprintf("the answer to id %s", m.ID)
	}
	return "a message"
}
