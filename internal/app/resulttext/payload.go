package resulttext

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// NoPayloadError says that a result does not hold exactly one image,
// audio or resource contents, and what it holds instead.
type NoPayloadError struct {
	Writable []string // what --raw could write: "2 images", "1 text resource"
	Others   []string // the rest: "1 text content", "1 resource link"
	Found    int      // how many items Writable counts
}

func (e *NoPayloadError) Error() string {
	switch {
	case e.Found == 0 && len(e.Others) == 0:
		return "the result holds no content"
	case e.Found == 0:
		return "the result holds no image, audio or resource contents nor a single text content, only " + strings.Join(e.Others, ", ")
	}
	msg := fmt.Sprintf("the result holds %d contents --raw could write, not one: %s", e.Found, strings.Join(e.Writable, ", "))
	if len(e.Others) > 0 {
		msg += " (and " + strings.Join(e.Others, ", ") + ")"
	}
	return msg
}

// Payload returns the decoded bytes of the single image, audio or resource
// contents of the result of method: the base64 of an image, audio or blob
// decoded, a text resource's text. A result with none of them but one
// text content gives that text, exactly as sent. It reads tools/call
// content (embedded resources included), prompts/get messages and
// resources/read contents. A result with none or several of them, or of
// another method, gets a *NoPayloadError.
func Payload(method string, raw []byte) ([]byte, error) {
	items, err := payloadItems(method, raw)
	if err != nil {
		return nil, err
	}
	writable, others := map[string]int{}, map[string]int{}
	var found, texts []content
	for _, it := range items {
		what, c, ok := classify(it)
		switch {
		case ok:
			writable[what]++
			found = append(found, c)
		case what == textContent && c.Text != nil:
			texts = append(texts, c)
			others[what]++
		default:
			others[what]++
		}
	}
	if len(found) == 0 && len(texts) == 1 {
		return []byte(*texts[0].Text), nil
	}
	if len(found) != 1 {
		return nil, &NoPayloadError{Found: len(found), Writable: holdings(writable), Others: holdings(others)}
	}
	switch c := found[0]; {
	case c.Data != nil:
		return decodePayload(*c.Data)
	case c.Blob != nil:
		return decodePayload(*c.Blob)
	default:
		return []byte(*c.Text), nil
	}
}

// payloadItems are the content items or resource contents of a result.
func payloadItems(method string, raw []byte) ([]json.RawMessage, error) {
	var r struct {
		Content  []json.RawMessage `json:"content"`
		Contents []json.RawMessage `json:"contents"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &NoPayloadError{Others: []string{"no JSON object"}}
	}
	switch method {
	case mcp.MethodToolsCall:
		return r.Content, nil
	case mcp.MethodResourcesRead:
		return r.Contents, nil
	case mcp.MethodPromptsGet:
		items := make([]json.RawMessage, 0, len(r.Messages))
		for _, m := range r.Messages {
			items = append(items, m.Content)
		}
		return items, nil
	}
	return nil, &NoPayloadError{Others: []string{"a " + termtext.OneLine(method) + " result, which has no contents"}}
}

// textContent is what classify names a text content item.
const textContent = "text content"

// classify names one item for NoPayloadError and returns the contents it
// carries when --raw can write them: an image's or audio's data, an
// embedded or read resource's blob or text.
func classify(raw json.RawMessage) (string, content, bool) {
	var c content
	if json.Unmarshal(raw, &c) != nil {
		return "item that is not an object", c, false
	}
	if c.Type == "resource" && len(c.Resource) > 0 {
		var inner content
		if json.Unmarshal(c.Resource, &inner) != nil {
			return "resource that is not an object", c, false
		}
		c = inner
	}
	switch {
	case (c.Type == "image" || c.Type == "audio") && c.Data != nil:
		return c.Type, c, true
	case c.Type == "" || c.Type == "resource":
		if c.Blob != nil {
			return "blob resource", c, true
		}
		if c.Text != nil {
			return "text resource", c, true
		}
	case c.Type == "resource_link":
		return "resource link", c, false
	}
	if c.Type == "" {
		return "item of no type", c, false
	}
	return c.Type + " content", c, false
}

// holdings words the counts: "1 image, 2 text contents", in name order.
func holdings(counts map[string]int) []string {
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, plural.Count(counts[n], n, irregular[n]))
	}
	return out
}

// irregular are the plurals of the item names English rules get wrong.
var irregular = map[string]string{
	"audio":                          "audio",
	"item of no type":                "items of no type",
	"item that is not an object":     "items that are not objects",
	"resource that is not an object": "resources that are not objects",
}

// decodePayload decodes base64 data, saying so when it is not base64.
func decodePayload(data string) ([]byte, error) {
	b, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("the server's base64 does not decode: %w", err)
	}
	return b, nil
}
