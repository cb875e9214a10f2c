package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
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
// longer than MaxCompletionValue are dropped and counted. The values are
// walked where they lie, not decoded into a list first, so an answer of
// millions of them costs the values kept.
func DecodeCompletion(raw json.RawMessage) (Suggestions, error) {
	var res struct {
		Completion *struct {
			Values  completionValues `json:"values"`
			Total   *int             `json:"total"`
			HasMore bool             `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		var bad *badCompletionValue
		if errors.As(err, &bad) {
			return Suggestions{}, &ProtocolError{Msg: bad.Error()}
		}
		return Suggestions{}, &ProtocolError{Msg: malformedResult(mcp.MethodCompletionComplete, raw, err)}
	}
	c := res.Completion
	if c == nil {
		return Suggestions{}, &ProtocolError{Msg: "the completion/complete result has no completion object"}
	}
	return Suggestions{Values: c.Values.kept, Total: c.Total, HasMore: c.HasMore, Dropped: c.Values.dropped}, nil
}

// completionValues decodes completion.values, keeping what Suggestions
// keeps and counting the rest.
type completionValues struct {
	kept    []string
	dropped int
}

// badCompletionValue is a value of completion.values that is no string.
type badCompletionValue struct{ index int }

func (e *badCompletionValue) Error() string {
	return fmt.Sprintf("the completion/complete result's completion.values[%d] is not a string", e.index)
}

// UnmarshalJSON walks the array (encoding/json checked it is valid JSON).
func (v *completionValues) UnmarshalJSON(b []byte) error {
	v.kept, v.dropped = []string{}, 0
	switch b[0] { // valid JSON, no leading space
	case 'n':
		return nil
	case '[':
	default:
		kinds := map[byte]string{'"': "string", '{': "object", 't': "bool", 'f': "bool"}
		kind, ok := kinds[b[0]]
		if !ok {
			kind = "number"
		}
		return &json.UnmarshalTypeError{Value: kind, Type: reflect.TypeFor[[]string](), Field: "completion.values"}
	}
	var bad error
	i := 0
	ok := jsonrpc.ArrayItems(b, func(item []byte) bool {
		defer func() { i++ }()
		if len(v.kept) == MaxCompletionValues {
			v.dropped++
			return true
		}
		var s string
		if json.Unmarshal(item, &s) != nil {
			bad = &badCompletionValue{index: i}
			return false
		}
		if len(s) > MaxCompletionValue {
			v.dropped++
			return true
		}
		v.kept = append(v.kept, s)
		return true
	})
	switch {
	case bad != nil:
		return bad
	case !ok:
		return errors.New("completion.values is not an array")
	}
	return nil
}
