package look

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// maxOutcomeText bounds the text of one content item shown in an outcome;
// the rest is in the detail pane of the response frame.
const maxOutcomeText = 64 << 10

// Outcome is the answer to a request sent from an overlay, as a scrollable
// view: the error with its code's name in the connection's dialect, or a
// readable summary of the MCP content (text, images, resources, stream
// refs, prompt messages, structuredContent beside the text) followed by
// the whole result as highlighted JSON.
type Outcome struct {
	Heading string // the method answered
	Body    string // rendered, before wrapping
	lines   []string
	w       int
	offset  int
	Failed  bool            // the answer is an error
	Result  json.RawMessage // the result answered, nil for an error
	Media   int             // the images, audio clips and blobs of the result (media.Items)

	st      *Styles
	parts   resultParts // what no width changes, drawn once (NewCheckedOutcome)
	failure string      // the tool's failure heading the body (FailTool)
	cols    int         // the width the body's previews are drawn at
	drawn   uint64      // media.Drawn when the body was drawn
	waiting bool        // the body shows a picture as Decoding
	pics    uint64      // st.Pictures.Gen when the body was drawn
}

// NewOutcome renders the answer of method: res when err is nil.
func NewOutcome(method string, res json.RawMessage, err error, d mcp.Dialect, st *Styles) *Outcome {
	return NewCheckedOutcome(method, res, err, d, st, nil)
}

// NewCheckedOutcome renders the answer of method as NewOutcome does, the
// structuredContent of a tools/call result checked against the tool's
// outputSchema too when one is given (structured.Check: "valid against
// outputSchema" or each failure with its path, under the value). The body
// is built once; for a result of megabytes that takes seconds, so a caller
// in a Bubble Tea program calls it in a tea.Cmd, not in Update.
func NewCheckedOutcome(method string, res json.RawMessage, err error, d mcp.Dialect, st *Styles, outputSchema json.RawMessage) *Outcome {
	return NewCheckedOutcomeWith(method, res, err, d, st, outputSchema, schemacheck.CompileApart)
}

// NewCheckedOutcomeWith is NewCheckedOutcome with outputSchema compiled by
// compile, which a caller judging the same result too (its verdict)
// shares, so that the schema is compiled once.
func NewCheckedOutcomeWith(method string, res json.RawMessage, err error, d mcp.Dialect, st *Styles, outputSchema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error)) *Outcome {
	o := &Outcome{Heading: method, Result: res}
	var b strings.Builder
	if err != nil {
		o.Failed = true
		var rpc *client.RPCError
		if errors.As(err, &rpc) && rpc.Err != nil {
			b.WriteString(st.Ink.Error.Paint(ErrorCodeIn(rpc.Err, d, mcp.ErrorContext{Method: rpc.Method})))
			b.WriteString("\n" + ExpandTabs(termtext.Block(rpc.Err.Message)))
			if len(rpc.Err.Data) > 0 {
				b.WriteString("\n\ndata:\n" + PrettyHighlighted(rpc.Err.Data, st))
			}
		} else {
			b.WriteString(st.Ink.Error.Paint(OneLine(err.Error())))
		}
		o.Body = b.String()
		return o
	}
	o.st, o.cols, o.Media = st, PreviewCols, len(media.Items(res))
	o.parts = newResultParts(res, outputSchema, compile, st)
	o.render()
	return o
}

// render draws the body of a result, its previews o.cols wide.
func (o *Outcome) render() {
	o.drawn, o.pics = media.Drawn(), o.st.Pictures.Gen()
	pb := &previewBudget{cols: o.cols, left: MaxPreviews}
	o.Body = resultBody(o.Result, o.parts, pb, o.st)
	if o.failure != "" {
		o.Body = o.failure + "\n\n" + o.Body
	}
	o.waiting = pb.waiting
	o.lines = nil
}

// FailTool marks the outcome of a tools/call whose result is nonetheless a
// failure (client.CheckToolResult): it reads as failed, and the failure,
// naming the tool and why, heads the body.
func (o *Outcome) FailTool(f *client.ToolFailure, st *Styles) {
	o.Failed = true
	o.failure = st.Ink.Error.Paint(f.Error())
	o.Body = o.failure + "\n\n" + o.Body
	o.lines = nil
}

// ErrorCode names a JSON-RPC error by its code and the code's name in
// dialect d, e.g. "error -32601 Method not found", when nothing is known
// of the request it answers.
func ErrorCode(e *jsonrpc.Error, d mcp.Dialect) string {
	return ErrorCodeIn(e, d, mcp.ErrorContext{})
}

// ErrorCodeIn names a JSON-RPC error by its code and the code's name in
// dialect d and the context of the request it answers
// (mcp.ErrorNameIn): "error -32000 Cancelled" for the answer to a
// cancellation, never a name the server's message reads against.
func ErrorCodeIn(e *jsonrpc.Error, d mcp.Dialect, c mcp.ErrorContext) string {
	return strings.TrimSpace(fmt.Sprintf("error %d %s", e.Code, mcp.ErrorNameIn(d, e, c)))
}

// ErrorHeadline says what err is in one line: a JSON-RPC error by its code,
// the code's name (in the context of the method it answers) and its
// message, which is left out when it only repeats the name.
func ErrorHeadline(err error, d mcp.Dialect) string {
	var rpc *client.RPCError
	if errors.As(err, &rpc) && rpc.Err != nil {
		code, msg := ErrorCodeIn(rpc.Err, d, mcp.ErrorContext{Method: rpc.Method}), OneLine(rpc.Err.Message)
		if msg == "" || strings.HasSuffix(strings.ToLower(code), " "+strings.ToLower(msg)) {
			return code
		}
		return code + ": " + msg
	}
	return OneLine(err.Error())
}

// PrettyHighlighted indents and colours JSON, or shows it as it is (made
// safe to print) when it is not JSON.
func PrettyHighlighted(raw json.RawMessage, st *Styles) string {
	pretty, err := jsonrpc.PrettyJSON(raw)
	if err != nil {
		return termtext.Block(string(raw))
	}
	return HighlightJSON(string(pretty), st)
}

// SetSize wraps the body for width w, its previews drawn again when
// they would not fit.
func (o *Outcome) SetSize(w, _ int) {
	if o.waiting && o.drawn != media.Drawn() || o.st != nil && o.pics != o.st.Pictures.Gen() {
		o.render() // a picture it waited for is drawn, or its cells may show another
	}
	if w == o.w && o.lines != nil {
		return
	}
	o.w = w
	w = max(w, 1)
	if cols := min(w, PreviewCols); o.Result != nil && o.st != nil && cols != o.cols {
		o.cols = cols
		o.render()
	}
	o.lines = o.lines[:0]
	for _, l := range strings.Split(o.Body, "\n") {
		o.lines = append(o.lines, WrapHanging(l, w, Hang(ansi.Strip(l), w))...)
	}
	o.offset = min(o.offset, max(len(o.lines)-1, 0))
}

// Scroll moves the first line shown.
func (o *Outcome) Scroll(v nav.Move) { o.offset = v.Apply(o.offset, len(o.lines)) }

// Render draws the heading and the lines from the offset in w×h.
func (o *Outcome) Render(w, h int) string {
	o.SetSize(w, h)
	if h <= 0 {
		return ""
	}
	end := min(o.offset+h, len(o.lines))
	return strings.Join(o.lines[o.offset:end], "\n")
}

// contentSummary describes the MCP content of a result — tools/call
// content and structuredContent, resources/read contents, prompts/get
// messages — one readable block per item; "" when it has none. Whether a
// tools/call failed is not said here: FailTool heads the body with it.
func contentSummary(res json.RawMessage, pb *previewBudget, st *Styles) string {
	var r struct {
		Content  []json.RawMessage `json:"content"`
		Contents []json.RawMessage `json:"contents"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Description string `json:"description"`
	}
	if json.Unmarshal(res, &r) != nil {
		return ""
	}
	var parts []string
	if r.Description != "" {
		parts = append(parts, st.Ink.Muted.Paint(ExpandTabs(termtext.Block(r.Description))))
	}
	for _, c := range r.Content {
		parts = append(parts, contentItem(c, pb, st))
	}
	for _, c := range r.Contents {
		parts = append(parts, contentItem(c, pb, st))
	}
	for _, m := range r.Messages {
		parts = append(parts, st.Ink.Muted.Paint("["+OneLine(m.Role)+"]")+" "+contentItem(m.Content, pb, st))
	}
	return strings.Join(parts, "\n")
}

// MaxPreviews bounds the images and clips drawn in a view of content;
// the others are named only.
const MaxPreviews = 8

// previewBudget is how wide the previews of a view of content are drawn
// and how many more may be; waiting says one drawn is still decoding.
type previewBudget struct {
	cols, left int
	waiting    bool
}

// ContentItem describes one content item or resource contents; the
// server's text in it is made safe to print.
func ContentItem(raw json.RawMessage, st *Styles) string {
	return contentItem(raw, &previewBudget{cols: PreviewCols, left: 1}, st)
}

// contentItem is ContentItem drawing a preview within pb.
func contentItem(raw json.RawMessage, pb *previewBudget, st *Styles) string {
	var c struct {
		Type      string          `json:"type"`
		Text      *string         `json:"text"`
		Data      string          `json:"data"`
		Blob      string          `json:"blob"`
		MimeType  string          `json:"mimeType"`
		URI       string          `json:"uri"`
		Name      string          `json:"name"`
		StreamTag *uint32         `json:"streamTag"`
		Size      *int64          `json:"size"`
		Resource  json.RawMessage `json:"resource"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return st.Ink.Muted.Paint(termtext.Block(string(raw)))
	}
	head := func(s string) string { return st.Ink.Muted.Paint("[" + OneLine(s) + "]") }
	switch {
	case c.Type == "ref/stream" && c.StreamTag != nil:
		size := "size unknown"
		if c.Size != nil {
			size = ByteSize(*c.Size)
		}
		return head(fmt.Sprintf("execution stream tag %d · %s · %s — see the Streams pane", *c.StreamTag, c.MimeType, size))
	case c.Type == "resource" && len(c.Resource) > 0:
		return head("embedded resource") + " " + contentItem(c.Resource, pb, st)
	case c.Type == "resource_link":
		return head("resource link") + " " + OneLine(c.URI+" "+c.Name)
	case c.Text != nil:
		text := ExpandTabs(termtext.BlockMax(*c.Text, maxOutcomeText)) // tabs keep their columns
		if c.URI != "" {
			return head(c.URI+" "+c.MimeType) + "\n" + text
		}
		return text
	case c.Data != "" || c.Blob != "":
		n := len(c.Data) + len(c.Blob)
		what := c.Type
		if what == "" {
			what = "blob"
		}
		label := fmt.Sprintf("%s %s, %s base64", what, c.MimeType, ByteSize(int64(n)))
		if c.URI != "" {
			label = c.URI + " · " + label
		}
		if pb.left <= 0 {
			return head(label)
		}
		pb.left--
		p := MediaPreview(raw, pb.cols, PreviewRows, st)
		pb.waiting = pb.waiting || strings.Contains(p, Decoding)
		return head(label) + p
	}
	return st.Ink.Muted.Paint(termtext.Block(string(raw)))
}
