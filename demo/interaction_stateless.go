package demo

import (
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A stateless wizard keeps no session memory (seed 002, Appendix B): its
// session id is a token, signed with the server's key, that carries the
// whole sessionState under a stable inner id. Every state change issues a
// new token, sent as the sessionId of the next interaction.prompt or
// interaction.complete; a client follows the inner id (see
// mcp.DecodeSessionToken) and answers with the newest token. The token is
// verified on every request; one that does not verify is -32001. Without
// memory there is no timeout warning (expiry is checked against the
// token's last activity), and a token can be replayed until it expires.

// sealToken signs st as the token of the session with inner id.
func (c *Conn) sealToken(inner string, st *sessionState) (string, *jsonrpc.Error) {
	token, err := mcp.SignSessionToken(inner, st, c.srv.tokenKey)
	if err != nil {
		return "", rpcError(mcp.CodeInternalError, nil, "the session token cannot be signed: %v", err)
	}
	return token, nil
}

// openToken verifies a token and returns its wizard, its state (moved to
// error, expired, when its timeout has passed) and its inner id.
func (c *Conn) openToken(token string, now time.Time) (*wizard, *sessionState, string, *jsonrpc.Error) {
	notFound := func(why string) (*wizard, *sessionState, string, *jsonrpc.Error) {
		return nil, nil, "", interactionError(mcp.CodeSessionNotFound, token, "session not found: %s", why)
	}
	if _, ok := mcp.DecodeSessionToken(token); !ok {
		return notFound("no session has this id")
	}
	tok, err := mcp.VerifySessionToken(token, c.srv.tokenKey)
	if err != nil {
		return notFound("the session token was not issued by this server or was altered (" + err.Error() + ")")
	}
	var st sessionState
	if err := json.Unmarshal(tok.State, &st); err != nil {
		return notFound("the session token holds no session state")
	}
	w, ok := c.srv.wizard(st.Tool)
	if !ok || !w.Stateless || st.Step < 0 || st.Step > len(w.Steps) {
		return notFound("the session token names no stateless wizard")
	}
	if st.Data == nil {
		st.Data = map[string]json.RawMessage{}
	}
	if !st.State.Terminal() && now.After(st.expiresAt()) {
		st.Expired, st.State = true, mcp.InteractionError
	}
	return w, &st, tok.SessionID, nil
}

// respondStateless serves interaction.respond on a token: the new state
// goes out in a new token with the next prompt, or with the completion.
func (c *Conn) respondStateless(token string, resp mcp.InteractionResponse, now time.Time) (any, *jsonrpc.Error, func()) {
	w, st, inner, rerr := c.openToken(token, now)
	if rerr != nil {
		return nil, rerr, nil
	}
	res, rerr := st.respond(w, inner, resp, now)
	if rerr != nil {
		return nil, rerr, nil
	}
	var method string
	var params any
	if st.State == mcp.InteractionProcessing {
		o, result := w.outcome(st.Data)
		cp, rerr := st.finish(inner, o, result)
		if rerr != nil {
			return nil, rerr, nil
		}
		method, params = mcp.MethodInteractionComplete, &cp
		st.Data, st.History = map[string]json.RawMessage{}, nil // cleaned up (the result carries the data)
		if cp.SessionID, rerr = c.sealToken(inner, st); rerr != nil {
			return nil, rerr, nil
		}
	} else {
		next, rerr := c.sealToken(inner, st)
		if rerr != nil {
			return nil, rerr, nil
		}
		pp, err := st.promptParams(w, next, now)
		if err != nil {
			return nil, rpcError(mcp.CodeInternalError, nil, "%v", err), nil
		}
		method, params = mcp.MethodInteractionPrompt, pp
	}
	return res, nil, func() { c.tell(method, params, nil) }
}
