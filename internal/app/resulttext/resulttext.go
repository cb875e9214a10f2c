// Package resulttext renders MCP results as text a person reads at a
// terminal: a tool's text content as its text, its images, audio and
// resources one line each with their type and size, a prompt's messages
// as "role: text", a resource's contents, and listings as aligned tables.
// A result of any other method, or of a shape its method does not
// promise, is shown as indented JSON.
//
// Every piece of server text passes through termtext: escape sequences and
// other controls are shown escaped, never sent to the terminal, and one
// text item is shortened past TextMax bytes.
package resulttext

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/jsonindent"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TextMax is the most bytes of one text item (a text content, a text
// resource) that Result shows at a terminal; the rest is cut and the
// render says how many bytes were left out. Uncut renders for a file, and
// JSON and --raw keep everything.
const TextMax = 1 << 20

// Result renders the result of a request of method as text for a
// terminal width cells wide (0: no limit; only listings use it), each
// text item cut past TextMax bytes. The text ends with a newline.
func Result(method string, raw []byte, width int) string {
	return render(method, raw, width, TextMax, nil)
}

// Uncut is Result for a file: no text item is cut.
func Uncut(method string, raw []byte, width int) string {
	return render(method, raw, width, 0, nil)
}

// ToolResult is Result (Uncut when uncut) of a tools/call result whose
// tool lists outputSchema: its structuredContent is checked against it too
// ("valid against outputSchema", each failure with its path, or why it
// was not checked). A nil outputSchema checks nothing.
func ToolResult(raw []byte, width int, outputSchema json.RawMessage, uncut bool) string {
	textMax := TextMax
	if uncut {
		textMax = 0
	}
	return render(mcp.MethodToolsCall, raw, width, textMax, outputSchema)
}

// render is Result with textMax bytes of a text item shown (≤ 0: all),
// a tools/call's structuredContent checked against outputSchema when
// given.
func render(method string, raw []byte, width, textMax int, outputSchema json.RawMessage) string {
	var out string
	switch method {
	case mcp.MethodToolsCall:
		out = toolResult(raw, textMax, outputSchema)
	case mcp.MethodPromptsGet:
		out = promptResult(raw, textMax)
	case mcp.MethodResourcesRead:
		out = readResult(raw, textMax)
	case mcp.MethodToolsList, mcp.MethodResourcesList, mcp.MethodResourceTemplatesList, mcp.MethodPromptsList, mcp.MethodSkillsList:
		out = listPage(method, raw, width)
	}
	if out == "" {
		out = JSON(raw)
	}
	return endLine(out)
}

// JSON renders raw as indented JSON safe to print (termtext.JSON), or,
// when it is not JSON, as its text made safe to print.
func JSON(raw []byte) string {
	out, err := jsonindent.Indent(raw, jsonindent.DefaultMaxDepth)
	if err != nil {
		return termtext.Block(string(raw))
	}
	return string(termtext.JSON(out))
}

// endLine ends s with exactly one newline.
func endLine(s string) string {
	return strings.TrimRight(s, "\n") + "\n"
}

// toolResult renders a tools/call result: its content, then its
// structuredContent with how it compares to the text, and "error: " before
// the first line when isError is set. "" when the result holds no content
// array (a task, or a shape of its own).
func toolResult(raw []byte, textMax int, outputSchema json.RawMessage) string {
	var r struct {
		Content           *[]json.RawMessage `json:"content"`
		StructuredContent json.RawMessage    `json:"structuredContent"`
		IsError           bool               `json:"isError"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Content == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range *r.Content {
		item, _ := contentItem(c, textMax)
		b.WriteString(endLine(item))
	}
	b.WriteString(structuredPart(raw, outputSchema))
	out := b.String()
	if r.IsError {
		if out == "" {
			out = "the tool reported an error and sent no content"
		}
		out = "error: " + out
	}
	if out == "" {
		out = "(no content)"
	}
	return out
}

// promptResult renders a prompts/get result: its description, then each
// message as "role: content". "" when it holds no messages array.
func promptResult(raw []byte, textMax int) string {
	var r struct {
		Description string `json:"description"`
		Messages    *[]struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Messages == nil {
		return ""
	}
	var b strings.Builder
	if r.Description != "" {
		b.WriteString(endLine(termtext.Block(r.Description)) + "\n")
	}
	for _, m := range *r.Messages {
		item, _ := contentItem(m.Content, textMax)
		b.WriteString(termtext.OneLine(m.Role) + ": " + endLine(item))
	}
	if len(*r.Messages) == 0 {
		b.WriteString("(no messages)")
	}
	return b.String()
}

// readResult renders a resources/read result: the text of a single text
// resource as it is; with several contents, each one's text under a line
// naming its URI and type; a blob as one line. "" when it holds no
// contents array.
func readResult(raw []byte, textMax int) string {
	var r struct {
		Contents *[]json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Contents == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range *r.Contents {
		b.WriteString(appResourcePart(c))
		b.WriteString(endLine(resourceContents(c, len(*r.Contents) > 1, textMax)))
	}
	if len(*r.Contents) == 0 {
		b.WriteString("(no contents)")
	}
	return b.String()
}
