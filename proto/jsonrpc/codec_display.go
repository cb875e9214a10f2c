package jsonrpc

import (
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/jsonindent"
)

// PrettyJSON indents a JSON body by two spaces per level, for display. Key
// order, number spelling and string escapes are kept as they were. Levels
// deeper than jsonindent.DefaultMaxDepth are written compactly, so the
// result stays proportional to the body however deep it nests.
func PrettyJSON(body []byte) ([]byte, error) {
	out, err := jsonindent.Indent(body, jsonindent.DefaultMaxDepth)
	if err != nil {
		return nil, fmt.Errorf("JSON body cannot be indented: %w", err)
	}
	return out, nil
}
