package client

import (
	"context"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sendCancelled tells the server the client no longer waits for the
// request with id, of method: with the transport's own message when it
// declares one (Traits.Cancel, MCP-Flow's $/cancel); by closing the
// request's answer stream where the protocol cancels so (closesToCancel)
// and the transport can close it (Traits.Abort), and with nothing more
// when it is closed already, for those dialects have no
// notifications/cancelled; otherwise with notifications/cancelled, after
// telling the transport the request is given up (Traits.Cancelled), so
// that its answer is not delivered.
func (s *Session) sendCancelled(id jsonrpc.ID, method, reason string) error {
	ctx, cancel := context.WithTimeout(context.Background(), min(cancelSendTimeout, s.sendLimit()))
	defer cancel()
	if cancelRequest := s.traits.Cancel; cancelRequest != nil {
		return cancelRequest(ctx, id, reason)
	}
	if abort := s.traits.Abort; abort != nil && s.closesToCancel(method) {
		abort(id, reason)
		return nil
	}
	if given := s.traits.Cancelled; given != nil {
		given(id)
	}
	msg, err := jsonrpc.NewNotification(mcp.MethodNotifyCancelled,
		mcp.CancelledNotificationParams{RequestID: id, Reason: reason})
	if err != nil {
		return err
	}
	return s.t.Send(ctx, msg)
}

// closesToCancel reports whether a request of method is cancelled by
// closing its answer stream, with no notification: in the 2026-07-28
// revision (server/discover always speaks it) and in seed 004's dialects,
// which have no session to notify.
func (s *Session) closesToCancel(method string) bool {
	return s.traits.HandshakeFree || method == mcp.MethodDiscover || s.Era() == EraModern
}
