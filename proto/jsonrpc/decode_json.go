package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// ErrNestedTooDeep is the reason of a body nested deeper than MaxJSONDepth.
var ErrNestedTooDeep = fmt.Errorf("it is nested deeper than %d levels", MaxJSONDepth)

// shownValue is how many bytes of a value an envelope reason quotes.
const shownValue = 64

// DecodeJSON decodes one JSON-RPC message or a batch from a JSON body. Each
// message keeps its exact bytes in Raw; a leading byte order mark is
// skipped (CheckText reports it). A body that breaks a rule is returned
// with an error naming what is wrong, and msgs then holds what can still
// be delivered: the good items of a batch, and for every body or item that
// claims an id a message carrying the error as its Violation.
func DecodeJSON(body []byte) (msgs []*Message, batch bool, err error) {
	text := withoutBOM(body)
	s := scanner{b: text}
	if s.ws(); s.i < len(text) && text[s.i] == '[' {
		msgs, err := decodeJSONBatch(text)
		return msgs, true, err
	}
	m, err := DecodeMessage(body)
	if m == nil {
		return nil, false, err
	}
	return []*Message{m}, false, err
}

// decodeJSONBatch decodes the items of a batch one by one.
func decodeJSONBatch(text []byte) ([]*Message, error) {
	sc := scanArray(text)
	switch {
	case sc.depth > MaxJSONDepth:
		return nil, fmt.Errorf("batch: %w", ErrNestedTooDeep)
	case sc.status != scanOK || sc.trailing(text) >= 0 || !validJSON(text, sc.depth):
		return nil, fmt.Errorf("batch: %w", syntaxError(text))
	case len(sc.items) == 0:
		return nil, errors.New("empty batch")
	}
	var (
		msgs  []*Message
		first error
	)
	for i, it := range sc.items {
		m, err := DecodeMessage(it)
		if m != nil {
			msgs = append(msgs, m)
		}
		if err != nil && first == nil {
			first = fmt.Errorf("batch item %d: %w", i, err)
		}
	}
	return msgs, first
}

// DecodeMessage decodes a single JSON-RPC message from JSON, keeping body in
// Raw; a leading byte order mark is skipped. A body that is not an object
// is a plain error. An object that breaks a rule gives an *EnvelopeError,
// with a message carrying it as Violation when the body's id could be read.
func DecodeMessage(body []byte) (*Message, error) {
	text := withoutBOM(body)
	sc := scanObject(text)
	if !sc.opened {
		return nil, notAnObject(text)
	}
	m, verr := decodeObject(text, &sc, len(body)-len(text))
	if verr != nil {
		return violationMessage(body, verr), verr
	}
	m.Raw = body
	return m, nil
}

// NewViolation returns the message that carries cause to the engine for a
// body that cannot be delivered (cut short, say) but whose top-level "id"
// can be read, or nil when it cannot. The body is read tolerantly: only the
// members that are complete count.
func NewViolation(body []byte, cause error) *Message {
	text := withoutBOM(body)
	sc := scanObject(text)
	ids, _ := memberIDs(&sc)
	return violationMessage(body, &EnvelopeError{IDs: ids, Request: hasMember(&sc, "method"), Reason: cause.Error(), Err: cause})
}

// violationMessage wraps an envelope error whose ids could be read.
func violationMessage(body []byte, e *EnvelopeError) *Message {
	if len(e.IDs) == 0 {
		return nil
	}
	id := e.IDs[0]
	return &Message{ID: &id, Raw: body, Violation: e}
}

// notAnObject says why a body that does not start with '{' is no message.
func notAnObject(text []byte) error {
	if json.Valid(text) {
		return fmt.Errorf("not a JSON-RPC message: the body is %s, not an object", ValueKind(text))
	}
	if sc := scanArray(text); sc.opened && sc.depth > MaxJSONDepth {
		return fmt.Errorf("not a JSON-RPC message: %w", ErrNestedTooDeep)
	}
	return fmt.Errorf("not a JSON-RPC message: %w", syntaxError(text))
}

// ValueKind names the kind of a JSON value by its first byte: "an
// object", "an array", "a string", "a boolean", "null", "a number", or
// "nothing" when there is only white space.
func ValueKind(v []byte) string {
	s := scanner{b: v}
	s.ws()
	if s.i >= len(v) {
		return "nothing"
	}
	switch c := v[s.i]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return "a number"
}

// syntaxError returns encoding/json's reason why b is not JSON.
func syntaxError(b []byte) error {
	var v json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

// memberIDs decodes the complete top-level "id" members of a scan, null
// ones left out, and returns the first that does not decode.
func memberIDs(sc *jsonScan) (ids []ID, bad error) {
	for _, mb := range sc.members {
		if string(mb.name) != "id" || mb.value == nil {
			continue
		}
		var id ID
		if err := id.UnmarshalJSON(mb.value); err != nil {
			bad = firstErr(bad, err)
			continue
		}
		if !id.IsNull() {
			ids = append(ids, id)
		}
	}
	return ids, bad
}

// firstErr returns a unless it is nil, else b.
func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// hasMember reports whether a scan met a member called name.
func hasMember(sc *jsonScan, name string) bool {
	for _, mb := range sc.members {
		if string(mb.name) == name {
			return true
		}
	}
	return false
}

// decodeObject builds the message a scanned object holds and checks its
// envelope. bom is the length of the byte order mark skipped before text,
// so that offsets count from the start of the body.
func decodeObject(text []byte, sc *jsonScan, bom int) (*Message, *EnvelopeError) {
	ids, badID := memberIDs(sc)
	fail := func(reason string, err error, malformed bool) (*Message, *EnvelopeError) {
		return nil, &EnvelopeError{IDs: ids, Request: hasMember(sc, "method"), Malformed: malformed, Reason: reason, Err: err}
	}
	switch {
	case sc.depth > MaxJSONDepth:
		return fail(ErrNestedTooDeep.Error(), ErrNestedTooDeep, false)
	case sc.status == scanTruncated:
		return fail("its JSON ends inside the object", io.ErrUnexpectedEOF, true)
	case sc.status == scanBroken || !validJSON(text[:sc.end], sc.depth):
		end := len(text)
		if sc.status == scanOK {
			end = sc.end
		}
		serr := syntaxError(text[:end])
		var se *json.SyntaxError
		if errors.As(serr, &se) {
			return fail(fmt.Sprintf("its JSON is malformed at byte offset %d: %v", max(int(se.Offset)-1, 0)+bom, serr), serr, true)
		}
		return fail("its JSON is malformed: "+serr.Error(), serr, true)
	}
	if at := sc.trailing(text); at >= 0 {
		return fail(fmt.Sprintf("it has data after the object, at byte offset %d: %s", at+bom, quoteValue(text[at:])), nil, false)
	}
	if badID != nil {
		return fail(badID.Error(), badID, false)
	}
	m := &Message{}
	if len(ids) > 0 {
		m.ID = &ids[0]
	}
	var seen Members
	for _, mb := range sc.members {
		name := nameString(mb.name)
		seen.Add(name)
		if reason := m.setMember(name, mb.value, &seen); reason != "" {
			return fail(reason, nil, false)
		}
	}
	if e := CheckEnvelope(m, &seen); e != nil {
		return fail(e.Reason, nil, false)
	}
	return m, nil
}

// nameString is a member's name as a string: JSON-RPC's own names
// without a copy.
func nameString(b []byte) string {
	for _, n := range jsonrpcMembers {
		if string(b) == n {
			return n
		}
	}
	return string(b)
}

// setMember decodes one top-level member into m and says what is wrong
// with its value, if anything. v is valid JSON.
func (m *Message) setMember(name string, v []byte, seen *Members) string {
	switch name {
	case "jsonrpc":
		s, ok := jsonText(v)
		if !ok {
			return fmt.Sprintf(`"jsonrpc" is %s, want "2.0"`, quoteValue(v))
		}
		m.JSONRPC = s
	case "method":
		s, ok := jsonText(v)
		if !ok {
			return fmt.Sprintf(`"method" is %s, not a string`, quoteValue(v))
		}
		m.Method = s
	case "params":
		m.Params = v
	case "result":
		m.Result = v
	case "error":
		if string(v) == "null" {
			seen.NullError = true
			return ""
		}
		e, reason := decodeErrorObject(v)
		m.Error = e
		return reason
	}
	return ""
}

// decodeErrorObject decodes the error object of an answer. v is valid JSON.
func decodeErrorObject(v []byte) (*Error, string) {
	if v[0] != '{' {
		return nil, fmt.Sprintf(`"error" is %s, not an object`, quoteValue(v))
	}
	sc := scanObject(v)
	e := &Error{}
	hasCode := false
	for _, mb := range sc.members {
		switch string(mb.name) {
		case "code":
			n, err := strconv.ParseInt(string(mb.value), 10, strconv.IntSize)
			switch {
			case errors.Is(err, strconv.ErrRange):
				return nil, fmt.Sprintf(`"error"."code" is %s, an integer out of range`, quoteValue(mb.value))
			case err != nil:
				return nil, fmt.Sprintf(`"error"."code" is %s, not an integer`, quoteValue(mb.value))
			}
			e.Code, hasCode = int(n), true
		case "message":
			s, ok := jsonText(mb.value)
			if !ok {
				return nil, fmt.Sprintf(`"error"."message" is %s, not a string`, quoteValue(mb.value))
			}
			e.Message = s
		case "data":
			e.Data = mb.value
		}
	}
	if !hasCode {
		return nil, `"error" has no "code"`
	}
	return e, ""
}

// jsonText decodes a JSON string value; ok is false for any other value.
func jsonText(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		if string(inner) == Version {
			return Version, true // every message's "jsonrpc", without a copy
		}
		return string(inner), true
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// quoteValue shows a JSON value, or its first shownValue bytes and "…", in
// a reason, safe to print.
func quoteValue(v []byte) string {
	shown, cut := cutUTF8(v, shownValue)
	if !cut {
		return termtext.LineMax(string(shown), 0)
	}
	return termtext.LineMax(string(shown), 0) + "…"
}
