package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

type idKind uint8

const (
	idNull idKind = iota
	idInt
	idString
)

// ID is a JSON-RPC request id. It is a string or an integer, and an integer
// id stays an integer through JSON and CBOR. The zero ID is null.
type ID struct {
	kind idKind
	num  int64
	str  string
}

// IntID returns an integer id.
func IntID(n int64) ID { return ID{kind: idInt, num: n} }

// StringID returns a string id.
func StringID(s string) ID { return ID{kind: idString, str: s} }

// IsNull reports whether the id is null (absent or JSON null).
func (id ID) IsNull() bool { return id.kind == idNull }

// IsString reports whether the id is a string.
func (id ID) IsString() bool { return id.kind == idString }

// Int returns the integer value of an integer id.
func (id ID) Int() (int64, bool) { return id.num, id.kind == idInt }

// Str returns the value of a string id.
func (id ID) Str() (string, bool) { return id.str, id.kind == idString }

// String renders the id as it appears in JSON: 7, "abc" or null.
func (id ID) String() string {
	switch id.kind {
	case idInt:
		return strconv.FormatInt(id.num, 10)
	case idString:
		return strconv.Quote(id.str)
	}
	return "null"
}

// Key returns a comparable key that keeps 7 and "7" apart. IDs compare
// with == as their keys do.
func (id ID) Key() string {
	switch id.kind {
	case idInt:
		var buf [24]byte
		buf[0] = 'i'
		return string(strconv.AppendInt(buf[:1], id.num, 10))
	case idString:
		return "s" + id.str
	}
	return "null"
}

// MarshalJSON writes the id as a JSON number, string or null.
func (id ID) MarshalJSON() ([]byte, error) {
	switch id.kind {
	case idInt:
		return strconv.AppendInt(nil, id.num, 10), nil
	case idString:
		return json.Marshal(id.str)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a JSON number (integral), string or null.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return fmt.Errorf("empty id")
	case bytes.Equal(b, []byte("null")):
		*id = ID{}
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("id: %w", err)
		}
		*id = StringID(s)
	default:
		n, err := parseIntID(b)
		if err != nil {
			return err
		}
		*id = IntID(n)
	}
	return nil
}

// shownID is how many bytes of an unusable id an error quotes.
const shownID = 40

// parseIntID reads a JSON number as an integer id. JSON-RPC discourages
// fractional ids; 1.0-style integers are accepted. An integer outside
// int64 is refused as too large, with its digits.
func parseIntID(b []byte) (int64, error) {
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err == nil {
		return n, nil
	}
	shown := termtext.LineMax(termtext.Shorten(string(b), shownID), 0)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("id %s is an integer too large for the id space (int64)", shown)
	}
	f, ferr := strconv.ParseFloat(string(b), 64)
	switch {
	case ferr != nil && !(errors.Is(ferr, strconv.ErrRange) && math.IsInf(f, 0)), f != math.Trunc(f):
		return 0, fmt.Errorf("id %s is neither a string nor an integer", shown)
	case f < -(1<<63) || f >= 1<<63 || math.IsInf(f, 0):
		return 0, fmt.Errorf("id %s is an integer too large for the id space (int64)", shown)
	}
	return int64(f), nil
}
