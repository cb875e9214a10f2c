package proto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
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

// Key returns a comparable key that keeps 7 and "7" apart.
func (id ID) Key() string {
	switch id.kind {
	case idInt:
		return "i" + strconv.FormatInt(id.num, 10)
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
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			// JSON-RPC discourages fractional ids; accept 1.0-style integers only.
			f, ferr := strconv.ParseFloat(string(b), 64)
			if ferr != nil || f != float64(int64(f)) {
				return fmt.Errorf("id %s is neither a string nor an integer", b)
			}
			n = int64(f)
		}
		*id = IntID(n)
	}
	return nil
}
