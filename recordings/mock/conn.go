package mock

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// Conn is one client's session with the mock: it keeps its own place in
// the recording. Its methods may be called from several goroutines.
type Conn struct {
	rec    *Recording
	mu     sync.Mutex
	served map[*exchange]bool
}

// NewConn starts a client's session.
func (r *Recording) NewConn() *Conn { return &Conn{rec: r, served: map[*exchange]bool{}} }

// Handle takes one JSON-RPC message from the client (or a JSON array of
// them) and returns the messages to send back, in order: for a request,
// the notifications and requests the server sent before its answer, then
// the answer; for notifications/initialized, the messages the server sent
// outside any request; nothing for another notification or a response.
// A message that is not JSON-RPC gets an error answer.
func (c *Conn) Handle(msg []byte) [][]byte {
	msgs, _, err := jsonrpc.DecodeJSON(msg)
	if err != nil && len(msgs) == 0 {
		code := mcp.CodeParseError
		if json.Valid(msg) {
			code = mcp.CodeInvalidRequest
		}
		return [][]byte{errorAnswer(jsonrpc.ID{}, code, "not a JSON-RPC message: "+oneLine(err.Error()), nil)}
	}
	var out [][]byte
	for _, m := range msgs {
		out = append(out, c.handleOne(m)...)
	}
	return out
}

// handleOne answers one decoded message.
func (c *Conn) handleOne(m *jsonrpc.Message) [][]byte {
	if m.Violation != nil {
		id := jsonrpc.ID{}
		if m.ID != nil {
			id = *m.ID
		}
		return [][]byte{errorAnswer(id, mcp.CodeInvalidRequest, "not a valid JSON-RPC message: "+oneLine(m.Violation.Error()), nil)}
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		return c.request(m)
	case jsonrpc.KindNotification:
		if m.Method == mcp.MethodNotifyInitialized {
			return slices.Clip(c.rec.unsolicited) // the caller's append must not reach the Recording's
		}
		return nil
	case jsonrpc.KindResult, jsonrpc.KindError:
		return nil
	}
	id := jsonrpc.ID{}
	if m.ID != nil {
		id = *m.ID
	}
	return [][]byte{errorAnswer(id, mcp.CodeInvalidRequest, "not a JSON-RPC request, notification or response", nil)}
}

// request answers a request of the client from the recording.
func (c *Conn) request(m *jsonrpc.Message) [][]byte {
	ex, failure := c.match(m.Method, m.Params)
	if failure != nil {
		return [][]byte{failure.answer(*m.ID)}
	}
	if ex == nil { // a ping the recording lacks
		return [][]byte{answer(*m.ID, json.RawMessage("{}"), nil)}
	}
	token := progressToken(m.Params)
	out := make([][]byte, 0, len(ex.before)+1)
	for _, b := range ex.before {
		out = append(out, withProgressToken(b, ex.token, token))
	}
	return append(out, answer(*m.ID, ex.result, ex.err))
}

// match picks the recorded request that answers method with params: nil
// and no failure for a ping the recording lacks.
func (c *Conn) match(method string, params json.RawMessage) (*exchange, *unmatched) {
	cands := c.rec.byMethod[method]
	switch {
	case len(cands) > 0 && (method == mcp.MethodInitialize || method == mcp.MethodDiscover):
		return cands[0], nil
	case len(cands) == 0 && method == mcp.MethodPing:
		return nil, nil
	case len(cands) == 0:
		return nil, c.rec.closestMethod(method)
	}
	doc, err := jsondiff.Decode(paramsDocument(params))
	if err != nil {
		return nil, &unmatched{code: mcp.CodeInvalidParams, message: "params are not JSON: " + oneLine(err.Error())}
	}
	var equal []*exchange
	best, fewest := cands[0], -1
	for _, ex := range cands {
		n := c.rec.differences(ex, doc)
		if n == 0 {
			equal = append(equal, ex)
		}
		if fewest < 0 || n < fewest {
			best, fewest = ex, n
		}
	}
	if len(equal) == 0 {
		return nil, closestOf(method, best, fewest)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ex := range equal {
		if !c.served[ex] {
			c.served[ex] = true
			return ex, nil
		}
	}
	return equal[len(equal)-1], nil
}

// differences counts the members where doc differs from ex's params.
func (r *Recording) differences(ex *exchange, doc any) int {
	want, err := jsondiff.Decode(paramsDocument(ex.params))
	if err != nil {
		return 1 << 30
	}
	rep := jsondiff.Compare(want, doc, r.opts)
	return len(rep.Diffs) + rep.Omitted
}

// paramsDocument is the document a match compares: {"params": …}, the
// engine's own _meta members left out and absent params taken as {}.
func paramsDocument(params json.RawMessage) []byte {
	p := normalParams(against.RequestParams(params))
	return append(append([]byte(`{"params":`), p...), '}')
}

// answer is the response to the client's request id.
func answer(id jsonrpc.ID, result json.RawMessage, e *jsonrpc.Error) []byte {
	m := &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Error: e}
	if e == nil {
		m.Result = result
		if len(m.Result) == 0 {
			m.Result = json.RawMessage("null")
		}
	}
	b, err := m.EncodeJSON()
	if err != nil { // a recorded result that is not JSON
		return errorAnswer(id, mcp.CodeInternalError, "the recorded answer is not JSON", nil)
	}
	return b
}

// errorAnswer is an error response.
func errorAnswer(id jsonrpc.ID, code int, message string, data any) []byte {
	b, _ := jsonrpc.NewErrorResponse(id, code, message, data).EncodeJSON()
	return b
}

// withProgressToken returns a recorded server message with the client's
// progress token in place of the recorded one, when it is a progress
// notification of the recorded request and the client gave a token.
func withProgressToken(raw []byte, recorded, token string) []byte {
	if token == "" || recorded == "" {
		return raw
	}
	var m struct {
		Method string                     `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Method != mcp.MethodNotifyProgress || m.Params == nil {
		return raw
	}
	m.Params["progressToken"] = json.RawMessage(token)
	b, err := json.Marshal(map[string]any{"jsonrpc": jsonrpc.Version, "method": m.Method, "params": m.Params})
	if err != nil {
		return raw
	}
	return b
}
