package client

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CodeClientBusy is the JSON-RPC error code of the answer to a server
// request the client refused because MaxServerRequests were already being
// answered: the first of JSON-RPC's implementation-defined codes.
const CodeClientBusy = mcp.CodeServerError

// BusyData is the data of a CodeClientBusy error: how many of the server's
// requests were being answered, and the most the client answers at once.
type BusyData struct {
	InFlight int `json:"inFlight"`
	Limit    int `json:"limit"`
}

// busyError is the answer to a request refused with inFlight requests being
// answered.
func busyError(inFlight int) *jsonrpc.Error {
	data, _ := json.Marshal(BusyData{InFlight: inFlight, Limit: MaxServerRequests})
	return &jsonrpc.Error{Code: CodeClientBusy, Data: data, Message: fmt.Sprintf(
		"the client is busy: %d requests from the server are already in flight, the most it answers at once; try again later", inFlight)}
}

// RefusedServerRequests returns how many requests from the server were
// answered with a CodeClientBusy error because MaxServerRequests were
// already being answered. Every request is answered one way or the other.
func (s *Session) RefusedServerRequests() uint64 { return s.refused.Load() }

// refuseBusy answers a request the client has no room for with a busy error.
func (s *Session) refuseBusy(m *jsonrpc.Message) {
	s.refused.Add(1)
	id := *m.ID
	s.answerNow(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Error: busyError(len(s.handlers))})
}

// answerPing answers a ping from the server with {}.
func (s *Session) answerPing(m *jsonrpc.Message) {
	id := *m.ID
	s.answerNow(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Result: mcp.EmptyObject})
}
