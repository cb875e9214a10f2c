package findings

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of one session's memory.
const (
	// maxPending is how many unanswered requests a session remembers.
	maxPending = 4096
	// maxAnswered is how many answered requests a session remembers, to
	// tell a second answer.
	maxAnswered = 1024
	// maxTools is how many tools' outputSchemas a session remembers.
	maxTools = 1024
)

// session is what a detector knows of one session: its era, the
// requests awaiting an answer, those answered lately, the tools listed.
type session struct {
	modern   bool // a request that carried the 2026-07-28 _meta got a result
	pending  bounded[request]
	answered bounded[struct{}]
	// forgot says a request was forgotten unanswered: an answer to an
	// unknown id may then answer it, and is not reported.
	forgot bool
	tools  bounded[*tool]
	http   bool // its frames came over HTTP
	// deprecated are the deprecated features reported: each once a
	// session.
	deprecated map[string]bool
}

// request is a request awaiting its answer.
type request struct {
	method string
	tool   string // tools/call: the tool's name
	modern bool   // it carried the 2026-07-28 _meta
}

// tool is a listed tool's outputSchema and the judge of its results.
type tool struct {
	judge func(result json.RawMessage) *client.ToolFailure
}

// newSession returns a session that has seen nothing.
func newSession() *session {
	return &session{deprecated: map[string]bool{}, pending: newBounded[request](maxPending), answered: newBounded[struct{}](maxAnswered), tools: newBounded[*tool](maxTools)}
}

// once says whether the deprecation code is reported for the first time
// in the session, and notes it.
func (s *session) once(code string) bool {
	if s.deprecated[code] {
		return false
	}
	s.deprecated[code] = true
	return true
}

// idKey names a request by who sent it and its id.
func idKey(sentBy capture.Dir, id jsonrpc.ID) string {
	return sentBy.String() + " " + id.Key()
}

// modernMeta reads the protocol version a request's _meta names.
func modernMeta(params json.RawMessage) bool {
	var p struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	return bytes.Contains(params, []byte(mcp.MetaProtocolVersion)) && json.Unmarshal(params, &p) == nil && mcp.IsModernVersion(p.Meta.Version)
}
