// Package structured says what a tools/call result's structuredContent
// is beside its content: whether each text item that is JSON is the same
// value (and where it differs when not), and whether it passes the tool's
// outputSchema (each failure with its path). The words are plain lines a
// terminal render tints by their Tone; server text in them is made safe.
package structured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Bounds of a report.
const (
	// MaxShown is how many differences or schema failures are listed; the
	// rest are counted.
	MaxShown = 20
	// maxValue is how many bytes of a value a difference quotes.
	maxValue = 60
	// maxCompared is the largest text or structuredContent compared.
	maxCompared = 4 << 20
	// maxTextItems is how many content items are read for JSON text.
	maxTextItems = 16
)

// Tone says how a line reads: a plain fact, agreement, a departure, or an
// aside.
type Tone int

// The tones of a line.
const (
	Plain Tone = iota
	Good
	Bad
	Muted
)

// Line is one line of a report, safe to print.
type Line struct {
	Tone Tone
	Text string
}

// Of returns the structuredContent of a tools/call result, nil when it has
// none (absent or null).
func Of(result json.RawMessage) json.RawMessage {
	var r struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(result, &r) != nil || len(r.StructuredContent) == 0 || bytes.Equal(r.StructuredContent, []byte("null")) {
		return nil
	}
	return r.StructuredContent
}

// Report compares a tools/call result's structuredContent with its text
// content and, when outputSchema is given, checks it against it. nil when
// the result has no structuredContent; one line saying why when the
// result cannot be read, or when structuredContent is not the JSON object
// the spec requires (null included).
func Report(result, outputSchema json.RawMessage) []Line {
	return ReportWith(result, outputSchema, schemacheck.Compile)
}

// ReportWith is Report with outputSchema compiled by compile, which a
// caller making several checks against one schema apart shares among
// them.
func ReportWith(result, outputSchema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error)) []Line {
	sc := Of(result)
	if sc == nil {
		if Named(result) {
			return []Line{notObject(json.RawMessage("null"))}
		}
		return unreadable(result)
	}
	if k := jsonrpc.ValueKind(sc); k != "an object" {
		return []Line{notObject(sc)}
	}
	lines := Compare(result, sc)
	if len(outputSchema) > 0 {
		lines = append(lines, check(sc, outputSchema, compile)...)
	}
	return lines
}

// Named says whether a tools/call result names structuredContent, null
// included.
func Named(result json.RawMessage) bool {
	if !bytes.Contains(result, []byte(`"structuredContent"`)) {
		return false
	}
	var r struct {
		StructuredContent *json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(result, &r) != nil {
		return false
	}
	// A null member leaves the pointer nil: look for it among the members.
	var members map[string]json.RawMessage
	if r.StructuredContent == nil && json.Unmarshal(result, &members) == nil {
		_, ok := members["structuredContent"]
		return ok
	}
	return r.StructuredContent != nil
}

// notObject is the line that says structuredContent is not an object.
func notObject(sc json.RawMessage) Line {
	return Line{Bad, "structuredContent must be an object (got " + jsonrpc.ValueKind(sc) + ")"}
}

// unreadable says why a result that names structuredContent cannot be
// read (nested past what a decoder follows, say); nil when it names none
// or reads.
func unreadable(result json.RawMessage) []Line {
	if !bytes.Contains(result, []byte(`"structuredContent"`)) {
		return nil
	}
	var probe struct{}
	if err := json.Unmarshal(result, &probe); err != nil {
		return []Line{{Bad, termtext.LineMax("structuredContent could not be read: "+err.Error(), 200)}}
	}
	return nil
}

// Compare says, for each text content item that is JSON, whether it is the
// same value as sc, listing the first MaxShown paths where it differs;
// with text content but none of it JSON, it says there is nothing to
// compare.
func Compare(result, sc json.RawMessage) []Line {
	var r struct {
		Content []json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	if len(sc) > maxCompared {
		return []Line{{Muted, fmt.Sprintf("structuredContent is too large to compare with the text (%d bytes)", len(sc))}}
	}
	want, err := jsondiff.Decode(sc)
	if err != nil {
		return []Line{{Bad, termtext.Line("structuredContent could not be compared: " + err.Error())}}
	}
	var lines []Line
	sawText := false
	for i, raw := range r.Content[:min(len(r.Content), maxTextItems)] {
		var c struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if json.Unmarshal(raw, &c) != nil || c.Type != "text" || c.Text == nil {
			continue
		}
		sawText = true
		if !looksJSON(*c.Text) {
			continue
		}
		item := "content[" + strconv.Itoa(i) + "] text"
		if len(*c.Text) > maxCompared {
			lines = append(lines, Line{Muted, fmt.Sprintf("%s is too large to compare (%d bytes)", item, len(*c.Text))})
			continue
		}
		got, err := jsondiff.Decode([]byte(*c.Text))
		if err != nil {
			continue // text that is not one JSON value is prose, not a copy
		}
		rep := jsondiff.Compare(want, got, jsondiff.Options{Max: MaxShown})
		if rep.Equal() {
			lines = append(lines, Line{Good, item + " is the same JSON as structuredContent"})
			continue
		}
		n := len(rep.Diffs) + rep.Omitted
		lines = append(lines, Line{Bad, fmt.Sprintf("%s differs from structuredContent at %s (structuredContent → text):", item, plural.Count(n, "path", "paths"))})
		for _, d := range rep.Diffs {
			lines = append(lines, Line{Plain, "  " + termtext.Line(d.Line(maxValue))})
		}
		if rep.Omitted > 0 {
			lines = append(lines, Line{Muted, fmt.Sprintf("  … and %d more", rep.Omitted)})
		}
	}
	if lines == nil && sawText {
		lines = append(lines, Line{Muted, "no text content is JSON: nothing to compare with structuredContent"})
	}
	return lines
}

// looksJSON says a text starts like a JSON value: an object, an array, a
// string, a number, true, false or null (prose does not, mostly; what
// then fails to decode is prose all the same).
func looksJSON(s string) bool {
	t := bytes.TrimLeft([]byte(s[:min(len(s), 64)]), " \t\r\n")
	return len(t) > 0 && bytes.IndexByte([]byte(`{["-0123456789tfn`), t[0]) >= 0
}

// Check says whether sc passes outputSchema: "valid against outputSchema",
// or each failure with its path, the first MaxShown of them.
func Check(sc, outputSchema json.RawMessage) []Line {
	return check(sc, outputSchema, schemacheck.Compile)
}

// check is Check, outputSchema compiled by compile.
func check(sc, outputSchema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error)) []Line {
	s, err := compile(outputSchema)
	if err != nil {
		return []Line{{Muted, termtext.Line("outputSchema not checked: " + err.Error())}}
	}
	failures, err := s.Validate(sc)
	switch {
	case errors.Is(err, schemacheck.ErrNotChecked):
		return []Line{{Muted, termtext.Line("outputSchema not checked: " + err.Error())}}
	case err != nil:
		return []Line{{Bad, termtext.Line("fails outputSchema: " + err.Error())}}
	case len(failures) == 0:
		return []Line{{Good, "valid against outputSchema"}}
	}
	lines := []Line{{Bad, "fails outputSchema with " + plural.Count(len(failures), "error", "errors") + ":"}}
	shown := failures[:min(len(failures), MaxShown)]
	value := valueFor(sc, shown)
	for _, f := range shown {
		lines = append(lines, Line{Plain, "  " + termtext.LineMax(pathOf(value, f.Location)+": "+f.Message(), 200)})
	}
	if len(failures) > MaxShown {
		lines = append(lines, Line{Muted, fmt.Sprintf("  … and %d more", len(failures)-MaxShown)})
	}
	return lines
}

// valueFor decodes sc when a failure's location has a token that reads
// as an index, which only the value says is an array's element or an
// object's member; nil otherwise (or when it does not decode).
func valueFor(sc json.RawMessage, failures []*schemacheck.Failure) any {
	for _, f := range failures {
		for _, tok := range f.Location {
			if _, err := strconv.Atoi(tok); err == nil {
				var v any
				if json.Unmarshal(sc, &v) != nil {
					return nil
				}
				return v
			}
		}
	}
	return nil
}

// pathOf writes a schema failure's location in value as a path of the
// form jsondiff writes: $.a[0].b. A token that reads as an index is an
// element where value holds an array there, a member where it holds an
// object ($.0); without value, it is taken for an element.
func pathOf(value any, loc []string) string {
	p := make(jsondiff.Path, 0, len(loc))
	for _, tok := range loc {
		i, err := strconv.Atoi(tok)
		_, member := value.(map[string]any)
		if err == nil && i >= 0 && strconv.Itoa(i) == tok && !member {
			p = append(p, jsondiff.Element(i))
			if a, ok := value.([]any); ok && i < len(a) {
				value = a[i]
			} else {
				value = nil
			}
			continue
		}
		p = append(p, jsondiff.Member(tok))
		if m, ok := value.(map[string]any); ok {
			value = m[tok]
		} else {
			value = nil
		}
	}
	return p.String()
}

// Text joins lines, each ended by a newline, for a render without colour.
func Text(lines []Line) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}
