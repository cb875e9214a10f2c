package resulttext

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/internal/app/structured"
)

// structuredPart renders a tools/call result's structuredContent after
// its content: "structured content:", the value as indented JSON, then
// how each text item that is JSON compares with it and, when outputSchema
// is given, how it checks against it (structured.Report); "" when the
// result has none.
func structuredPart(raw, outputSchema json.RawMessage) string {
	sc := structured.Of(raw)
	if sc == nil {
		return structured.Text(structured.Report(raw, outputSchema))
	}
	return "structured content:\n" + endLine(JSON(sc)) + structured.Text(structured.Report(raw, outputSchema))
}
