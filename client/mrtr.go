package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// resolveInput runs the multi round-trip loop of the modern era: while the
// server answers input_required, each input request is answered through
// the Handler (or the engine's own roots) and the same method is sent again
// under a new id, with inputResponses and the server's requestState echoed
// unchanged.
func (s *Session) resolveInput(ctx context.Context, method string, params, result json.RawMessage, cfg *callConfig) (json.RawMessage, error) {
	for round := 2; ; round++ {
		var probe struct {
			ResultType string `json:"resultType"`
		}
		if json.Unmarshal(result, &probe) != nil || probe.ResultType != mcp.ResultTypeInputRequired {
			return result, nil
		}
		ir, err := mcp.DecodeInputRequired(result)
		if err != nil {
			return nil, &ProtocolError{Msg: fmt.Sprintf("%s answered input_required with a malformed result: %v", method, err)}
		}
		if round > MaxInputRounds {
			return nil, &ProtocolError{Msg: fmt.Sprintf("%s still asked for input after %d rounds", method, MaxInputRounds)}
		}
		retry, err := s.inputRetry(ctx, method, params, &ir, cfg.sent)
		if err != nil {
			return nil, err
		}
		if result, err = s.roundTrip(ctx, method, retry, cfg, round); err != nil {
			return nil, err
		}
	}
}

// inputRetry answers every input request, in key order, and returns the
// params of the retry. answered is the id of the request whose result
// asked for the input; the handler learns it with QuestionOriginOf.
func (s *Session) inputRetry(ctx context.Context, method string, params json.RawMessage, ir *mcp.InputRequired, answered jsonrpc.ID) (json.RawMessage, error) {
	responses, err := s.AnswerInputs(ctx, method, ir.InputRequests, answered)
	if err != nil {
		return nil, err
	}
	ms, err := objectMembers(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	ms = setMember(ms, "inputResponses", mustJSON(responses))
	var state json.RawMessage
	if ir.RequestState != "" {
		state = mustJSON(ir.RequestState)
	}
	ms = setMember(ms, "requestState", state)
	return encodeMembers(ms), nil
}

// AnswerInputs answers input requests (MRTR's input_required, a task's
// inputRequests) in key order, through the Handler or the engine's own
// roots, and returns each answer under its key. method names what asked,
// for errors; answered is the id of the request whose result asked, which
// the handler learns with QuestionOriginOf.
func (s *Session) AnswerInputs(ctx context.Context, method string, inputs map[string]mcp.InputRequest, answered jsonrpc.ID) (map[string]json.RawMessage, error) {
	ir := mcp.InputRequired{InputRequests: inputs}
	responses := make(map[string]json.RawMessage, len(inputs))
	for _, key := range ir.InputKeys() {
		req := inputs[key]
		answer, rpcErr := s.answer(WithQuestionOrigin(ctx, QuestionOrigin{RequestID: answered, InputKey: key}), req.Method, req.Params)
		if rpcErr != nil {
			return nil, fmt.Errorf("%s needs input %q (%s) that the client did not give: %w", method, key, req.Method, rpcErr)
		}
		raw, err := json.Marshal(answer)
		if err != nil {
			return nil, fmt.Errorf("the answer to input %q of %s cannot be encoded: %w", key, method, err)
		}
		responses[key] = raw
	}
	return responses, nil
}
