package mock

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// nullID is the id of an answer to a message whose id cannot be told.
var nullID = json.RawMessage("null")

// rawID is the id of m as the client wrote it, to echo byte for byte: a
// number token as it is (1e2, 1.5, 12345678901234567890123), a string
// compacted; null when m has none or it is neither.
func rawID(m *jsonrpc.Message) json.RawMessage {
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(m.Raw, &env) != nil || len(env.ID) == 0 {
		if m.ID != nil {
			if b, err := json.Marshal(m.ID); err == nil {
				return b
			}
		}
		return nullID
	}
	var b bytes.Buffer
	if json.Compact(&b, env.ID) != nil {
		return nullID
	}
	if t := b.Bytes(); t[0] == '"' || t[0] == '-' || (t[0] >= '0' && t[0] <= '9') {
		return t
	}
	return nullID
}

// withRawID reads again a message refused only for its id, a JSON
// number the id space cannot hold (a fraction, an integer past int64):
// it returns the message with a stand-in id and the client's id token,
// or nil when something else is wrong.
func withRawID(m *jsonrpc.Message) (*jsonrpc.Message, json.RawMessage) {
	id := rawID(m)
	if id[0] == '"' || id[0] == 'n' {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(m.Raw, &members) != nil {
		return nil, nil
	}
	members["id"] = json.RawMessage("0")
	b, err := json.Marshal(members)
	if err != nil {
		return nil, nil
	}
	fixed, _, err := jsonrpc.DecodeJSON(b)
	if err != nil || len(fixed) != 1 || fixed[0].Violation != nil || fixed[0].Kind() != jsonrpc.KindRequest {
		return nil, nil
	}
	return fixed[0], id
}

// answer is the response to the client's request id (a JSON token).
func answer(id json.RawMessage, result json.RawMessage, e *jsonrpc.Error) []byte {
	if e != nil {
		return errorResponse(id, e)
	}
	if len(bytes.TrimSpace(result)) == 0 {
		result = json.RawMessage("null")
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":`)
	if json.Compact(&b, result) != nil { // a recorded result that is not JSON
		return errorAnswer(id, mcp.CodeInternalError, "the recorded answer is not JSON", nil)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// errorAnswer is an error response.
func errorAnswer(id json.RawMessage, code int, message string, data any) []byte {
	e := &jsonrpc.Error{Code: code, Message: message}
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return errorResponse(id, e)
}

// errorResponse is the error response e under id.
func errorResponse(id json.RawMessage, e *jsonrpc.Error) []byte {
	body, err := json.Marshal(e)
	if err != nil {
		body, _ = json.Marshal(&jsonrpc.Error{Code: e.Code, Message: e.Message})
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":`...)
	b = append(b, body...)
	return append(b, '}')
}

// withProgressToken returns a recorded server message with the client's
// progress token in place of the recorded one, when it is a progress
// notification of the recorded request; ok is false for such a
// notification when the client asked for no progress: it is not sent.
func withProgressToken(raw []byte, recorded, token string) (b []byte, ok bool) {
	if recorded == "" {
		return raw, true
	}
	var m struct {
		Method string                     `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Method != mcp.MethodNotifyProgress || m.Params == nil || string(compact(m.Params["progressToken"])) != recorded {
		return raw, true
	}
	if token == "" {
		return nil, false
	}
	m.Params["progressToken"] = json.RawMessage(token)
	b, err := json.Marshal(map[string]any{"jsonrpc": jsonrpc.Version, "method": m.Method, "params": m.Params})
	if err != nil {
		return raw, true
	}
	return b, true
}
