package jsonrpc

import (
	"fmt"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// EnvelopeError says a body that holds an object is not a well-formed
// JSON-RPC 2.0 message. It carries the ids the body names at its top level
// when they could be read, so that the request an answer was meant for can
// fail at once instead of waiting out its timeout.
type EnvelopeError struct {
	// IDs are the values of the body's top-level "id" members that could
	// be read, in order: none, one, or more when "id" is given twice.
	IDs []ID
	// Request is true when the body has a top-level "method": it is a
	// request or a notification, not an answer.
	Request bool
	// Malformed is true when the body is not well-formed JSON, beyond
	// being nested too deep or followed by more data (reported as such).
	Malformed bool
	// Reason says what is wrong, as a clause: `it has both "result" and "error"`.
	Reason string
	// Err is the decoder's error behind Reason, if any.
	Err error
}

func (e *EnvelopeError) Error() string { return e.Reason }

// Unwrap returns the decoder's error, if any.
func (e *EnvelopeError) Unwrap() error { return e.Err }

// The top-level members JSON-RPC gives a meaning to, as bits of
// Members.present in the order of jsonrpcMembers.
const (
	memberJSONRPC uint8 = 1 << iota
	memberID
	memberMethod
	memberParams
	memberResult
	memberError
)

// jsonrpcMembers names the members of the bits above, in order.
var jsonrpcMembers = [...]string{"jsonrpc", "id", "method", "params", "result", "error"}

// smallMemberSet is how many names Members compares one by one before it
// switches to a map.
const smallMemberSet = 16

// Members records the top-level members of a message body as a decoder
// meets them, for CheckEnvelope: which JSON-RPC members are present (a
// present "error" that is null is not an absent one) and the first name
// given twice. The zero value is empty.
type Members struct {
	present uint8
	// NullError is set by the decoder when "error" is present and null.
	NullError bool
	// Duplicate is the first member name met twice, "" when none was.
	Duplicate string

	names [smallMemberSet]string // the first names, until set takes over
	count int                    // how many of names are in use
	set   map[string]struct{}
}

// Add records a member name in the order the body gives it.
func (s *Members) Add(name string) {
	for i, n := range jsonrpcMembers {
		if n == name {
			s.present |= 1 << i
		}
	}
	if s.Duplicate != "" {
		return
	}
	if s.set == nil {
		for _, n := range s.names[:s.count] {
			if n == name {
				s.Duplicate = name
				return
			}
		}
		if s.count < smallMemberSet {
			s.names[s.count] = name
			s.count++
			return
		}
		s.set = make(map[string]struct{}, 2*smallMemberSet)
		for _, n := range s.names {
			s.set[n] = struct{}{}
		}
		s.names, s.count = [smallMemberSet]string{}, 0
	}
	if _, dup := s.set[name]; dup {
		s.Duplicate = name
		return
	}
	s.set[name] = struct{}{}
}

// CheckEnvelope applies the JSON-RPC 2.0 envelope rules to a message a
// decoder built from a body whose top-level members it recorded in seen.
// It returns nil or an *EnvelopeError naming m.ID. Every decoder calls it
// once the members decoded, whatever the encoding.
func CheckEnvelope(m *Message, seen *Members) *EnvelopeError {
	reason := envelopeReason(m, seen)
	if reason == "" {
		return nil
	}
	e := &EnvelopeError{Request: seen.present&memberMethod != 0, Reason: reason}
	if m.ID != nil {
		e.IDs = []ID{*m.ID}
	}
	return e
}

// envelopeReason says which envelope rule m breaks, or "".
func envelopeReason(m *Message, seen *Members) string {
	switch {
	case seen.Duplicate != "":
		return fmt.Sprintf("it has %s twice", strconv.Quote(termtext.Shorten(seen.Duplicate, shownValue)))
	case seen.present&memberJSONRPC == 0:
		return `"jsonrpc" is missing, want "2.0"`
	case m.JSONRPC != Version:
		return fmt.Sprintf(`"jsonrpc" is %s, want "2.0"`, strconv.Quote(termtext.Shorten(m.JSONRPC, shownValue)))
	case seen.present&memberMethod != 0:
		if m.Method == "" {
			return `"method" is empty`
		}
		return ""
	}
	hasResult, hasError := seen.present&memberResult != 0, seen.present&memberError != 0
	switch {
	case hasResult && hasError:
		return `it has both "result" and "error"`
	case hasError && seen.NullError:
		return `"error" is null`
	case !hasResult && !hasError && seen.present&memberID == 0:
		return `it has no "method", "result" or "error"`
	case !hasResult && !hasError:
		return `it has neither "result" nor "error"`
	case seen.present&memberID == 0:
		return `the answer has no "id"`
	}
	return ""
}
