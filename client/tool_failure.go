package client

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// shownToolText is how many characters of a failed tool's text are quoted in
// a ToolFailure's one line.
const shownToolText = 200

// ToolFailureKind says why a tools/call result counts as a failure.
type ToolFailureKind int

const (
	// ToolIsError: the result carries isError: true, the tool's own report
	// of a failure.
	ToolIsError ToolFailureKind = iota + 1
	// ToolOutputMissing: the tool declares an outputSchema and the result
	// carries no structuredContent.
	ToolOutputMissing
	// ToolOutputInvalid: the result's structuredContent fails the tool's
	// outputSchema.
	ToolOutputInvalid
)

// ToolFailure is a tools/call answered with a result that is nonetheless a
// failure: isError set, or structured content that the tool's outputSchema
// refuses or that is missing though an outputSchema is declared. Headless
// commands exit 1 on it, as on a JSON-RPC error; the TUI marks the answer
// as an error.
type ToolFailure struct {
	Tool string
	Kind ToolFailureKind
	// Detail is the first text of the content (ToolIsError) or what the
	// outputSchema wants (ToolOutputInvalid), sanitized, on one line.
	Detail string
}

// Error is the failure in one line, naming the tool: `tool "read_file"
// failed (isError): ENOENT: no such file`.
func (f *ToolFailure) Error() string {
	var what string
	switch f.Kind {
	case ToolIsError:
		what = fmt.Sprintf("tool %q failed (isError)", f.Tool)
	case ToolOutputMissing:
		what = fmt.Sprintf("tool %q declares an outputSchema but its result has no structuredContent", f.Tool)
	case ToolOutputInvalid:
		what = fmt.Sprintf("tool %q returned structuredContent that fails its outputSchema", f.Tool)
	default:
		what = fmt.Sprintf("tool %q failed", f.Tool)
	}
	if f.Detail == "" {
		return what
	}
	return what + ": " + f.Detail
}

// Label is the failure's short name for a row or a heading: "isError",
// "no structuredContent", "outputSchema".
func (f *ToolFailure) Label() string {
	switch f.Kind {
	case ToolIsError:
		return "isError"
	case ToolOutputMissing:
		return "no structuredContent"
	case ToolOutputInvalid:
		return "outputSchema"
	}
	return "failed"
}

// CheckToolResult says whether the tools/call result of tool is a failure.
// outputSchema is the tool's declared outputSchema, nil when unknown or not
// declared. Each member is read on its own, so an odd type elsewhere (a
// content item's size as a string) does not hide isError. A result that is
// not an object, one that carries a task (the call runs as a task) and one
// that asks for input are not judged here; nil means the result is a
// success as far as can be told.
func CheckToolResult(tool string, result json.RawMessage, outputSchema json.RawMessage) *ToolFailure {
	return ToolResultChecker(tool, outputSchema)(result)
}

// present reports whether a member is there and not null.
func present(v json.RawMessage) bool {
	return len(v) > 0 && string(v) != "null"
}

// firstText is the first text of a result's content, on one sanitized
// line; each item is read on its own, an item that does not decode is
// passed over.
func firstText(content json.RawMessage) string {
	var items []json.RawMessage
	if json.Unmarshal(content, &items) != nil {
		return ""
	}
	for _, raw := range items {
		var c struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &c) == nil && c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			return termtext.LineMax(c.Text, shownToolText)
		}
	}
	return ""
}

// OutputSchemas maps each tool of a tools/list listing (its tools, one
// raw object each) that declares an outputSchema to that schema.
func OutputSchemas(tools []json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, raw := range tools {
		var t struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if json.Unmarshal(raw, &t) == nil && t.Name != "" && present(t.OutputSchema) {
			out[t.Name] = t.OutputSchema
		}
	}
	return out
}
