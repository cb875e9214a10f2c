package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// MaxCompletionValues is how many suggested values a completion keeps: the
// spec's limit for one answer. A server sending more has the rest dropped
// (Suggestions.Dropped counts them).
const MaxCompletionValues = 100

// MaxCompletionValue bounds the bytes of one suggested value; a longer
// value is dropped rather than kept cut, since taking it would send what
// the server never suggested.
const MaxCompletionValue = 4 << 10

// Suggestions is a decoded completion/complete answer: the values, at most
// MaxCompletionValues of them, as the server sent them (sanitize before
// showing), the total it says it has (nil when it does not say) and
// whether it has more than it sent.
type Suggestions struct {
	Values  []string `json:"values"`
	Total   *int     `json:"total,omitempty"`
	HasMore bool     `json:"hasMore"`
	// Dropped counts the values not kept: past MaxCompletionValues, or
	// longer than MaxCompletionValue.
	Dropped int `json:"-"`
}

// PromptRef is the reference of a prompt's argument: ref/prompt.
func PromptRef(name string) mcp.CompleteReference {
	return mcp.CompleteReference{Type: "ref/prompt", Name: name}
}

// TemplateRef is the reference of a resource template's variable:
// ref/resource with the URI template itself (not an expansion).
func TemplateRef(uriTemplate string) mcp.CompleteReference {
	return mcp.CompleteReference{Type: "ref/resource", URI: uriTemplate}
}

// AdvertisesCompletions reports whether the server's capabilities declare
// completions; a server that does not may still answer, so callers say so
// and let the user ask anyway.
func (s *Session) AdvertisesCompletions() bool {
	return Advertised(s.ServerCapabilities())["completions"]
}

// Complete asks completion/complete for the values of the argument name of
// ref whose text so far is value; others are the other arguments already
// filled in (context.arguments, left out when empty). A JSON-RPC error is
// an *RPCError; an answer of the wrong shape a *ProtocolError.
func (s *Session) Complete(ctx context.Context, ref mcp.CompleteReference, name, value string, others map[string]string, opts ...CallOption) (Suggestions, error) {
	raw, err := s.Call(ctx, mcp.MethodCompletionComplete, CompletionParams(ref, name, value, others), opts...)
	if err != nil {
		return Suggestions{}, err
	}
	return DecodeCompletion(raw)
}

// CompletionParams are the params of completion/complete for the argument
// name of ref, typed so far as value, with the other arguments as context
// (left out when there are none).
func CompletionParams(ref mcp.CompleteReference, name, value string, others map[string]string) mcp.CompleteParams {
	p := mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteArgument{Name: name, Value: value}}
	if len(others) > 0 {
		p.Context = &mcp.CompleteContext{Arguments: others}
	}
	return p
}

// DecodeCompletion reads a completion/complete result. Values that are not
// strings make the answer malformed; values past MaxCompletionValues or
// longer than MaxCompletionValue are dropped and counted.
func DecodeCompletion(raw json.RawMessage) (Suggestions, error) {
	var res struct {
		Completion *struct {
			Values  []json.RawMessage `json:"values"`
			Total   *int              `json:"total"`
			HasMore bool              `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return Suggestions{}, &ProtocolError{Msg: malformedResult(mcp.MethodCompletionComplete, raw, err)}
	}
	c := res.Completion
	if c == nil {
		return Suggestions{}, &ProtocolError{Msg: "the completion/complete result has no completion object"}
	}
	out := Suggestions{Values: []string{}, Total: c.Total, HasMore: c.HasMore}
	for i, v := range c.Values {
		if len(out.Values) == MaxCompletionValues {
			out.Dropped++
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return Suggestions{}, &ProtocolError{Msg: fmt.Sprintf("the completion/complete result's completion.values[%d] is not a string", i)}
		}
		if len(s) > MaxCompletionValue {
			out.Dropped++
			continue
		}
		out.Values = append(out.Values, s)
	}
	return out, nil
}
