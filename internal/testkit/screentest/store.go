package screentest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// SentRequests returns the params of the requests with method the client sent.
func SentRequests(st *capture.Store, method string) []json.RawMessage {
	var out []json.RawMessage
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == method {
			out = append(out, f.Msg.Params)
		}
	}
	return out
}

// RespondValues returns the response values of the interaction.respond
// requests in the captured traffic, as JSON text.
func RespondValues(t testing.TB, st *capture.Store) []string {
	t.Helper()
	var out []string
	for _, raw := range SentRequests(st, mcp.MethodInteractionRespond) {
		var p mcp.InteractionRespondParams
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("interaction.respond params %s: %v", raw, err)
		}
		out = append(out, string(p.Response.Value))
	}
	return out
}

// FutureDate is a date a year from now: one the demo's book_trip accepts.
func FutureDate() string { return time.Now().UTC().AddDate(1, 0, 0).Format(time.DateOnly) }

// Notification is the notification of method with params.
func Notification(t testing.TB, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
