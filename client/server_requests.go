package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// MaxServerRequests bounds the server→client requests answered at once;
// past it new ones are refused with a CodeClientBusy error (and counted)
// rather than queued.
const MaxServerRequests = 256

// deliverServerRequest answers a request from the server on its own
// goroutine, so a slow answer (a human filling a form) never blocks reading.
// A ping is answered at once, without a goroutine; past MaxServerRequests a
// request is refused as busy.
func (s *Session) deliverServerRequest(m *jsonrpc.Message) {
	if s.routeInteraction(m) {
		return
	}
	if m.Method == mcp.MethodPing {
		s.answerPing(m)
		return
	}
	select {
	case s.handlers <- struct{}{}:
	default:
		s.refuseBusy(m)
		return
	}
	id := *m.ID
	ctx, cancel := context.WithCancel(WithQuestionOrigin(context.Background(), QuestionOrigin{RequestID: id}))
	s.mu.Lock()
	if s.failure != nil {
		s.mu.Unlock()
		cancel()
		<-s.handlers
		return
	}
	s.serverReqs[id.Key()] = cancel
	s.mu.Unlock()
	go func() {
		defer func() { <-s.handlers }()
		defer cancel()
		result, rpcErr := s.answer(ctx, m.Method, m.Params)
		s.mu.Lock()
		delete(s.serverReqs, id.Key())
		s.mu.Unlock()
		if ctx.Err() != nil {
			return // the server cancelled it, or the session ended: no answer is due
		}
		s.respond(ctx, id, result, rpcErr)
	}()
}

// respond sends the answer to a server request. ctx carries the
// question's origin (QuestionOriginOf), which tells a transport that the
// answer is a handler's, not one decided on the reader.
func (s *Session) respond(ctx context.Context, id jsonrpc.ID, result any, rpcErr *jsonrpc.Error) {
	var msg *jsonrpc.Message
	if rpcErr == nil {
		var err error
		if msg, err = jsonrpc.NewResult(id, result); err != nil {
			rpcErr = &jsonrpc.Error{Code: mcp.CodeInternalError, Message: fmt.Sprintf("the answer cannot be encoded: %v", err)}
		}
	}
	if rpcErr != nil {
		msg = &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Error: rpcErr}
	}
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.Timeout)
	defer cancel()
	if err := s.t.Send(sendCtx, msg); err != nil && stoppedReading(err) {
		// Nothing sent after it could reach the server either.
		b, _ := msg.EncodeJSON()
		s.answers.fail(&queuedAnswer{m: msg, size: len(b)}, err)
	}
}

// cancelServerRequest stops the handler of a server request the server
// cancelled.
func (s *Session) cancelServerRequest(id jsonrpc.ID) {
	s.mu.Lock()
	cancel := s.serverReqs[id.Key()]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// answer produces the result of one server→client request, whether it came
// on the connection (legacy) or inside an input_required result (modern).
func (s *Session) answer(ctx context.Context, method string, params json.RawMessage) (any, *jsonrpc.Error) {
	if method == mcp.MethodPing {
		return mcp.EmptyObject, nil
	}
	if h := s.opts.Handler; h != nil {
		result, err := h.HandleServerRequest(ctx, method, params)
		if err == nil {
			if result == nil {
				result = mcp.EmptyObject
			}
			return result, nil
		}
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			return nil, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: err.Error()}
		}
		if rpcErr.Code != mcp.CodeMethodNotFound || method != mcp.MethodRootsList {
			return nil, rpcErr
		}
	}
	if method == mcp.MethodRootsList {
		if roots, ok := s.currentRoots(); ok {
			return mcp.ListRootsResult{Roots: roots}, nil
		}
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: fmt.Sprintf("method %q is not supported by this client", method)}
}

// currentRoots returns the roots the client exposes, and whether it
// exposes any list at all.
func (s *Session) currentRoots() ([]mcp.Root, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.roots == nil {
		return nil, false
	}
	return append([]mcp.Root{}, s.roots...), true
}

// SendRoots replaces the roots the client exposes and sends
// notifications/roots/list_changed.
func (s *Session) SendRoots(roots []mcp.Root) error {
	if roots == nil {
		roots = []mcp.Root{}
	}
	s.mu.Lock()
	s.roots = append([]mcp.Root{}, roots...)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	return s.Notify(ctx, mcp.MethodNotifyRootsListChanged, nil)
}
