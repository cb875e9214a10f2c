package client

import (
	"context"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// QuestionOrigin says which message of the server asked the question a
// ServerRequestHandler is answering.
type QuestionOrigin struct {
	// RequestID is the id of the server's request (a server→client
	// request), or of the client's request whose input_required result
	// carried the question (2026-07-28 MRTR).
	RequestID jsonrpc.ID
	// InputKey is the question's key in that input_required result; ""
	// for a server→client request.
	InputKey string
}

// originKey is the context key of a QuestionOrigin.
type originKey struct{}

// WithQuestionOrigin returns ctx carrying o. The session sets it on the
// context of every question it hands its ServerRequestHandler; a test or
// another caller of a handler may set it the same way.
func WithQuestionOrigin(ctx context.Context, o QuestionOrigin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// QuestionOriginOf returns the origin of the question whose handler got
// ctx; ok is false for a context the session did not make.
func QuestionOriginOf(ctx context.Context) (o QuestionOrigin, ok bool) {
	o, ok = ctx.Value(originKey{}).(QuestionOrigin)
	return o, ok
}
