package client

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/jsonschema"
	"github.com/mcpscope/mcpscope/internal/termtext"
	"github.com/mcpscope/mcpscope/proto"
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
// declared. A result that does not decode is not judged here (the caller
// reports a malformed result its own way); nil means the result is a
// success as far as can be told.
func CheckToolResult(tool string, result json.RawMessage, outputSchema json.RawMessage) *ToolFailure {
	var r proto.CallToolResult
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	if r.IsError {
		return &ToolFailure{Tool: tool, Kind: ToolIsError, Detail: firstText(r.Content)}
	}
	if len(outputSchema) == 0 || string(outputSchema) == "null" || r.NeedsInput() {
		return nil
	}
	if len(r.StructuredContent) == 0 || string(r.StructuredContent) == "null" {
		return &ToolFailure{Tool: tool, Kind: ToolOutputMissing}
	}
	s, err := jsonschema.Compile(outputSchema)
	if err != nil {
		return nil // a schema mcpscope cannot read judges nothing
	}
	failures, err := s.Validate(r.StructuredContent)
	if err != nil {
		return &ToolFailure{Tool: tool, Kind: ToolOutputInvalid, Detail: termtext.LineMax(err.Error(), shownToolText)}
	}
	if len(failures) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(failures))
	for _, f := range failures {
		msgs = append(msgs, f.Error())
	}
	return &ToolFailure{Tool: tool, Kind: ToolOutputInvalid, Detail: termtext.LineMax(strings.Join(msgs, "; "), shownToolText)}
}

// firstText is the first text content item, on one sanitized line.
func firstText(content []proto.ContentBlock) string {
	for _, c := range content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			return termtext.LineMax(c.Text, shownToolText)
		}
	}
	return ""
}
