package resulttext

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// content is what a render reads of one content item or resource contents.
type content struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	Data      *string         `json:"data"`
	Blob      *string         `json:"blob"`
	MimeType  string          `json:"mimeType"`
	URI       string          `json:"uri"`
	Name      string          `json:"name"`
	Size      *int64          `json:"size"`
	StreamTag *uint32         `json:"streamTag"`
	Resource  json.RawMessage `json:"resource"`
}

// contentItem renders one content item (tools/call content, a prompt
// message's content), textMax bytes of its text at most, and says
// whether it is text content.
func contentItem(raw json.RawMessage, textMax int) (string, bool) {
	var c content
	if json.Unmarshal(raw, &c) != nil {
		return bracket(typeOf(raw), compactLine(raw)), false
	}
	switch c.Type {
	case "text":
		if c.Text != nil {
			return termtext.BlockMax(*c.Text, textMax), true
		}
	case "image", "audio":
		return mediaLine(c.Type, c.MimeType, c.Data), false
	case "resource_link":
		line := bracket("resource link", c.URI, c.MimeType, declaredSize(c.Size))
		if c.Name != "" {
			line += " " + termtext.OneLine(c.Name)
		}
		return line, false
	case "resource":
		if len(c.Resource) > 0 {
			return resourceContents(c.Resource, true, textMax), false
		}
	case "ref/stream":
		if c.StreamTag != nil {
			return bracket("execution stream", "tag "+strconv.FormatUint(uint64(*c.StreamTag), 10), c.MimeType, declaredSize(c.Size)), false
		}
	}
	return bracket(c.Type+" content", compactLine(raw)), false
}

// typeOf names a content item whose members are not of the types MCP
// gives them: "hologram content", or "content that is not an object".
func typeOf(raw json.RawMessage) string {
	var c struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return "content that is not an object:"
	}
	if s, ok := c.Type.(string); ok {
		return s + " content"
	}
	return "untyped content"
}

// resourceContents renders one resource contents: a blob as one line with
// its URI, type and decoded size; text as its text, under a line naming
// its URI and type when labelled.
func resourceContents(raw json.RawMessage, labelled bool, textMax int) string {
	var c content
	if json.Unmarshal(raw, &c) != nil {
		return bracket("resource of the wrong shape", compactLine(raw))
	}
	switch {
	case c.Blob != nil:
		return mediaLine("resource", c.MimeType, c.Blob, c.URI)
	case c.Text != nil && labelled:
		return bracket("resource", c.URI, c.MimeType) + "\n" + termtext.BlockMax(*c.Text, textMax)
	case c.Text != nil:
		return termtext.BlockMax(*c.Text, textMax)
	}
	return bracket("resource", c.URI, c.MimeType, "no text nor blob")
}

// bracket joins the non-empty words, each made safe to print on one line,
// between square brackets: "[image image/png 1.2 KiB]".
func bracket(words ...string) string {
	kept := words[:0:0]
	for _, w := range words {
		if w = termtext.OneLine(w); w != "" {
			kept = append(kept, w)
		}
	}
	return "[" + strings.Join(kept, " ") + "]"
}

// declaredSize renders the size a server declares, or "".
func declaredSize(n *int64) string {
	if n == nil || *n < 0 {
		return ""
	}
	return humanize.IBytes(uint64(*n))
}

// Decode decodes the base64 of an image, audio or blob: standard base64,
// padded or not (media.DecodeBase64).
func Decode(data string) ([]byte, error) { return media.DecodeBase64(data) }

// shownJSON is how many bytes of an unknown item's JSON a line quotes.
const shownJSON = 200

// compactLine is raw as one line of at most shownJSON bytes, safe to print.
func compactLine(raw json.RawMessage) string {
	return termtext.LineMax(strings.Join(strings.Fields(string(raw)), " "), shownJSON)
}
