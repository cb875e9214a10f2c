package cli

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// maxParamsSize bounds PARAMS_JSON read from stdin.
const maxParamsSize = 64 << 20

// parseParams reads PARAMS_JSON: a JSON object or array, or "-" to read it
// from stdin. An empty argument means no params.
func parseParams(arg string, stdin io.Reader) (json.RawMessage, error) {
	b := []byte(arg)
	if arg == "-" {
		if stdin == nil {
			return nil, usagef("PARAMS_JSON is \"-\" but there is no standard input")
		}
		var err error
		if b, err = io.ReadAll(io.LimitReader(stdin, maxParamsSize+1)); err != nil {
			return nil, usagef("cannot read PARAMS_JSON from standard input: %w", err)
		}
		if len(b) > maxParamsSize {
			return nil, usagef("PARAMS_JSON on standard input is over %d bytes", maxParamsSize)
		}
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, nil
	}
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		return nil, usagef("PARAMS_JSON is not valid JSON: %w", err)
	}
	if b[0] != '{' && b[0] != '[' {
		return nil, usagef("PARAMS_JSON must be a JSON object (or array), got %s", termtext.Ellipsis(string(b), 40))
	}
	return json.RawMessage(b), nil
}
