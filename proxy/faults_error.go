package proxy

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"go.yaml.in/yaml/v3"
)

// maxFaultData bounds how deep an error's data nests.
const maxFaultData = 64

// DefaultFaultMessage is the message of a fault's error answer that gives
// none.
const DefaultFaultMessage = "fault injected by mcpscope"

// faultError reads an error answer: code (required), message, data.
func faultError(n *yaml.Node) (*jsonrpc.Error, error) {
	if n.Kind != yaml.MappingNode {
		return nil, errors.New("error is a mapping of code, message and data")
	}
	e := &jsonrpc.Error{Message: DefaultFaultMessage}
	code := false
	for k := 0; k+1 < len(n.Content); k += 2 {
		key, val := n.Content[k], n.Content[k+1]
		var err error
		switch key.Value {
		case "code":
			e.Code, err = scalar[int](val, "a whole number")
			code = err == nil
		case "message":
			e.Message, err = scalar[string](val, "a text")
		case "data":
			var v any
			if v, err = nodeValue(val, 0); err == nil {
				e.Data, err = json.Marshal(v)
			}
		default:
			err = errors.New("unknown key; error takes code, message and data")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key.Value, err)
		}
	}
	if !code {
		return nil, errors.New("an error answer needs a code")
	}
	return e, nil
}

// nodeValue turns a YAML value into what encoding/json marshals: a
// timestamp stays the text it is written as, and keys are their text.
func nodeValue(n *yaml.Node, depth int) (any, error) {
	if depth > maxFaultData {
		return nil, fmt.Errorf("line %d: nested deeper than %d", n.Line, maxFaultData)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!timestamp" || n.ShortTag() == "!!binary" {
			return n.Value, nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return v, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for k := 0; k+1 < len(n.Content); k += 2 {
			if n.Content[k].Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key of data is a text", n.Content[k].Line)
			}
			v, err := nodeValue(n.Content[k+1], depth+1)
			if err != nil {
				return nil, err
			}
			out[n.Content[k].Value] = v
		}
		return out, nil
	}
	return nil, fmt.Errorf("line %d: not a value", n.Line)
}
