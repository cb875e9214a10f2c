package look

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/structured"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// resultNotes are the lines that head a result's summary: the UI
// resources' app metadata (CSP, permissions) and the cache hint of a read
// or list result, each line ended; "" when it has neither.
func resultNotes(res json.RawMessage, st *Styles) string {
	var b strings.Builder
	for _, a := range resulttext.ReadApps(res) {
		b.WriteString(st.Ink.Accent.Paint("── app "+termtext.Line(a.URI)+" ──") + "\n" + resulttext.AppLines(a.App))
	}
	if h := mcp.ReadCacheHint(res); h.Present {
		b.WriteString(st.Ink.Muted.Paint(CacheHintLine(h, time.Time{}, time.Time{})) + "\n")
	}
	return b.String()
}

// resultBody is the body of a result: the readable summary of its content,
// its previews drawn within pb, then the parts drawn once (resultParts):
// the structuredContent with how it compares to the text and checks
// against the schema, and the whole result as highlighted JSON.
func resultBody(res json.RawMessage, parts resultParts, pb *previewBudget, st *Styles) string {
	var b strings.Builder
	summary := parts.notes + contentSummary(res, pb, st)
	if parts.structured != "" {
		summary = strings.TrimLeft(summary+"\n\n"+parts.structured, "\n")
	}
	if summary != "" {
		b.WriteString(summary + "\n\n" + st.Ink.Muted.Paint("── result JSON ──") + "\n")
	}
	b.WriteString(parts.json)
	return b.String()
}

// resultParts are the pieces of a result's body that no width or picture
// changes, drawn once when the outcome is made: for a result of megabytes
// they take seconds, so a resize or a picture decoded later redraws only
// the summary around them.
type resultParts struct{ notes, structured, json string }

// newResultParts draws the parts of res, its structuredContent checked
// against schema when given.
func newResultParts(res, schema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error), st *Styles) resultParts {
	return resultParts{notes: resultNotes(res, st), structured: structuredSection(res, schema, compile, st), json: PrettyHighlighted(res, st)}
}

// structuredSection renders a tools/call result's structuredContent as
// highlighted JSON (a huge one only by its size: the result JSON below
// holds it), then StructuredLines; "" when it has none. The schema is
// compiled by compile, apart from the index's (an outcome is rendered in
// a tea.Cmd, and the index's judgements against the same schema never
// wait for it).
func structuredSection(res, schema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error), st *Styles) string {
	sc := structured.Of(res)
	if sc == nil {
		if why := structured.Report(res, nil); why != nil {
			return strings.TrimRight(st.Ink.Muted.Paint("── structuredContent ──")+"\n"+StructuredLines(why, st), "\n")
		}
		return ""
	}
	var b strings.Builder
	b.WriteString(st.Ink.Muted.Paint("── structuredContent ──") + "\n")
	if len(sc) > maxOutcomeText {
		b.WriteString(st.Ink.Muted.Paint(ByteSize(int64(len(sc)))+" of JSON: see the result JSON below") + "\n")
	} else {
		b.WriteString(PrettyHighlighted(sc, st) + "\n")
	}
	b.WriteString(StructuredLines(structured.ReportWith(res, schema, compile), st))
	return strings.TrimRight(b.String(), "\n")
}

// StructuredLines paints the lines of a structured report by their tone,
// one a line.
func StructuredLines(lines []structured.Line, st *Styles) string {
	var b strings.Builder
	for _, l := range lines {
		t := st.Ink.Muted
		switch l.Tone {
		case structured.Good:
			t = st.Ink.Good
		case structured.Bad:
			t = st.Ink.Error
		case structured.Plain:
			b.WriteString(l.Text + "\n")
			continue
		}
		b.WriteString(t.Paint(l.Text) + "\n")
	}
	return b.String()
}
