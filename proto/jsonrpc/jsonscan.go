package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// MaxJSONDepth is the deepest nesting of arrays and objects a JSON body may
// have, the outermost value being level 1. encoding/json has the same limit.
const MaxJSONDepth = 10000

// scanStatus says how skipping a value went.
type scanStatus uint8

const (
	scanOK        scanStatus = iota // the value is complete
	scanTruncated                   // the body ended inside the value
	scanBroken                      // the syntax broke
)

// jsonMember is one member of an object as scanObject found it.
type jsonMember struct {
	name  []byte // the name, unescaped
	value []byte // the value as written; nil when the body ended inside it
}

// jsonScan is what a scan of a body's outer object or array learned. It is
// tolerant: it reads what it can of a body that is cut short, nested too
// deep or malformed, without validating the values it skips (json.Valid
// does that).
type jsonScan struct {
	opened  bool         // the body starts with the expected bracket
	members []jsonMember // scanObject: the members met, in order
	items   [][]byte     // scanArray: the complete items met, in order
	status  scanStatus   // how the outer value ended
	end     int          // offset just past the outer value when status is scanOK
	depth   int          // deepest nesting met, the outer value being 1
}

// trailing returns the offset of the first byte that is not white space
// after the outer value, or -1 when there is none.
func (sc *jsonScan) trailing(b []byte) int {
	if sc.status != scanOK {
		return -1
	}
	for i := sc.end; i < len(b); i++ {
		if !isJSONSpace(b[i]) {
			return i
		}
	}
	return -1
}

// scanner walks a JSON body byte by byte, without recursion, so that input
// nested arbitrarily deep costs no stack.
type scanner struct {
	b     []byte
	i     int
	depth int // deepest nesting met
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) ws() {
	for s.i < len(s.b) && isJSONSpace(s.b[s.i]) {
		s.i++
	}
}

// str skips the string that starts at s.i.
func (s *scanner) str() scanStatus {
	from := s.i + 1
	for {
		k := bytes.IndexByte(s.b[from:], '"')
		if k < 0 {
			s.i = len(s.b)
			return scanTruncated
		}
		q := from + k
		slashes := 0
		for p := q - 1; p > s.i && s.b[p] == '\\'; p-- {
			slashes++
		}
		if slashes%2 == 0 {
			s.i = q + 1
			return scanOK
		}
		from = q + 1
	}
}

// nested skips the array or object that starts at s.i, one level below base.
func (s *scanner) nested(base int) scanStatus {
	level := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			if s.str() != scanOK {
				return scanTruncated
			}
			continue
		case '{', '[':
			level++
			s.depth = max(s.depth, base+level)
		case '}', ']':
			level--
			if level == 0 {
				s.i++
				return scanOK
			}
		}
		s.i++
	}
	return scanTruncated
}

// scalar skips a number, true, false or null. One that runs to the end of
// the body may be cut short, so it counts as truncated.
func (s *scanner) scalar() scanStatus {
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == ',' || c == '}' || c == ']' || isJSONSpace(c):
			if s.i == start {
				return scanBroken
			}
			return scanOK
		case c == '{' || c == '[' || c == '"' || c == ':':
			return scanBroken
		}
		s.i++
	}
	return scanTruncated
}

// value skips the value that starts at s.i, at nesting level base.
func (s *scanner) value(base int) scanStatus {
	if s.i >= len(s.b) {
		return scanTruncated
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		return s.nested(base - 1)
	}
	return s.scalar()
}

// open skips white space and the opening bracket; false when the body does
// not start with it.
func (s *scanner) open(bracket byte) bool {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != bracket {
		return false
	}
	s.i++
	s.depth = 1
	return true
}

// next moves past the separator after an item or member: done is true at
// the closing bracket.
func (s *scanner) next(closing byte) (done bool, st scanStatus) {
	s.ws()
	switch {
	case s.i >= len(s.b):
		return false, scanTruncated
	case s.b[s.i] == ',':
		s.i++
		return false, scanOK
	case s.b[s.i] == closing:
		s.i++
		return true, scanOK
	}
	return false, scanBroken
}

// empty reports whether the bracket just opened closes at once.
func (s *scanner) empty(closing byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		return true
	}
	return false
}

// scanObject reads the members of the object b holds, as far as it can.
func scanObject(b []byte) jsonScan { return scanOuter(b, '{') }

// scanArray reads the items of the array b holds, as far as it can.
func scanArray(b []byte) jsonScan { return scanOuter(b, '[') }

// scanOuter reads the object or array b holds, as bracket says. Its calls
// are direct so that the scanner stays on the stack.
func scanOuter(b []byte, bracket byte) jsonScan {
	s := scanner{b: b}
	sc := jsonScan{}
	if sc.opened = s.open(bracket); !sc.opened {
		sc.status = scanBroken
		return sc
	}
	if bracket == '{' {
		sc.status = s.members(&sc)
	} else {
		sc.status = s.items(&sc)
	}
	sc.end, sc.depth = s.i, s.depth
	return sc
}

// members reads the members of an object whose brace has been read.
func (s *scanner) members(sc *jsonScan) scanStatus {
	if s.empty('}') {
		return scanOK
	}
	// Room for a JSON-RPC message's members (jsonrpc, id, method, params)
	// in one allocation.
	sc.members = make([]jsonMember, 0, 4)
	for {
		quoted, st := s.name()
		if st != scanOK {
			return st
		}
		name := memberName(quoted)
		from := s.i
		st = s.value(2)
		if st == scanTruncated {
			sc.members = append(sc.members, jsonMember{name: name})
		}
		if st != scanOK {
			return st
		}
		sc.members = append(sc.members, jsonMember{name: name, value: s.b[from:s.i]})
		done, st := s.next('}')
		if st != scanOK || done {
			return st
		}
	}
}

// name reads a member's name as written (quotes included), the colon after
// it and the white space round them: the value starts at s.i.
func (s *scanner) name() ([]byte, scanStatus) {
	s.ws()
	if s.i >= len(s.b) {
		return nil, scanTruncated
	}
	if s.b[s.i] != '"' {
		return nil, scanBroken
	}
	start := s.i
	if st := s.str(); st != scanOK {
		return nil, st
	}
	quoted := s.b[start:s.i]
	s.ws()
	if s.i >= len(s.b) {
		return nil, scanTruncated
	}
	if s.b[s.i] != ':' {
		return nil, scanBroken
	}
	s.i++
	s.ws()
	return quoted, scanOK
}

// items reads the items of an array whose bracket has been read.
func (s *scanner) items(sc *jsonScan) scanStatus {
	if s.empty(']') {
		return scanOK
	}
	for {
		s.ws()
		from := s.i
		if st := s.value(2); st != scanOK {
			return st
		}
		sc.items = append(sc.items, s.b[from:s.i])
		done, st := s.next(']')
		if st != scanOK || done {
			return st
		}
	}
}

// memberName unescapes a quoted member name; a name whose escapes do not
// decode is kept as written, quotes included.
func memberName(quoted []byte) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return quoted
	}
	return []byte(s)
}
