package resulttext

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/internal/app/structured"
)

// structuredPart renders a tools/call result's structuredContent after
// its content: "structured content:", the value as indented JSON, then
// how each text item that is JSON compares with it; "" when the result
// has none.
func structuredPart(raw json.RawMessage) string {
	sc := structured.Of(raw)
	if sc == nil {
		return ""
	}
	return "structured content:\n" + endLine(JSON(sc)) + structured.Text(structured.Compare(raw, sc))
}
