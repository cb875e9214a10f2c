package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
)

// MaxServerRequests bounds the server→client requests answered at once;
// past it new ones are refused with a CodeClientBusy error (and counted)
// rather than queued.
const MaxServerRequests = 256

// deliverServerRequest answers a request from the server on its own
// goroutine, so a slow answer (a human filling a form) never blocks reading.
// A ping is answered at once, without a goroutine; past MaxServerRequests a
// request is refused as busy.
func (s *Session) deliverServerRequest(m *proto.Message) {
	if s.routeInteraction(m) {
		return
	}
	if m.Method == proto.MethodPing {
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
func (s *Session) respond(ctx context.Context, id proto.ID, result any, rpcErr *proto.Error) {
	var msg *proto.Message
	if rpcErr == nil {
		var err error
		if msg, err = proto.NewResult(id, result); err != nil {
			rpcErr = &proto.Error{Code: proto.CodeInternalError, Message: fmt.Sprintf("the answer cannot be encoded: %v", err)}
		}
	}
	if rpcErr != nil {
		msg = &proto.Message{JSONRPC: proto.Version, ID: &id, Error: rpcErr}
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
func (s *Session) cancelServerRequest(id proto.ID) {
	s.mu.Lock()
	cancel := s.serverReqs[id.Key()]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// answer produces the result of one server→client request, whether it came
// on the connection (legacy) or inside an input_required result (modern).
func (s *Session) answer(ctx context.Context, method string, params json.RawMessage) (any, *proto.Error) {
	if method == proto.MethodPing {
		return proto.EmptyObject, nil
	}
	if h := s.opts.Handler; h != nil {
		result, err := h.HandleServerRequest(ctx, method, params)
		if err == nil {
			if result == nil {
				result = proto.EmptyObject
			}
			return result, nil
		}
		var rpcErr *proto.Error
		if !errors.As(err, &rpcErr) {
			return nil, &proto.Error{Code: proto.CodeInternalError, Message: err.Error()}
		}
		if rpcErr.Code != proto.CodeMethodNotFound || method != proto.MethodRootsList {
			return nil, rpcErr
		}
	}
	if method == proto.MethodRootsList {
		if roots, ok := s.currentRoots(); ok {
			return proto.ListRootsResult{Roots: roots}, nil
		}
	}
	return nil, &proto.Error{Code: proto.CodeMethodNotFound, Message: fmt.Sprintf("method %q is not supported by this client", method)}
}

// currentRoots returns the roots the client exposes, and whether it
// exposes any list at all.
func (s *Session) currentRoots() ([]proto.Root, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.roots == nil {
		return nil, false
	}
	return append([]proto.Root{}, s.roots...), true
}

// SendRoots replaces the roots the client exposes and sends
// notifications/roots/list_changed.
func (s *Session) SendRoots(roots []proto.Root) error {
	if roots == nil {
		roots = []proto.Root{}
	}
	s.mu.Lock()
	s.roots = append([]proto.Root{}, roots...)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	return s.Notify(ctx, proto.MethodNotifyRootsListChanged, nil)
}
