package jsonschema

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MaxDepth is how deeply a schema document or a value may nest (arrays and
// objects inside one another); deeper documents are refused before any
// work is done on them.
const MaxDepth = 256

// jsonKind is the JSON type of a decoded value.
type jsonKind uint8

const (
	kindNull jsonKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// indexFrom is the member count from which an object keeps a map from
// names to members; smaller objects are searched in order.
const indexFrom = 9

// value is one decoded JSON value. Objects keep their members in document
// order; a repeated name keeps the position of its first occurrence and
// the value of its last.
type value struct {
	kind    jsonKind
	boolean bool
	text    string // a string's content, or a number as written
	num     number
	items   []*value
	members []member
	index   map[string]int
	digest  string // key, once computed
}

// member is one name and value of an object.
type member struct {
	name string
	val  *value
}

// lookup returns the member named name, or nil.
func (v *value) lookup(name string) *value {
	if v.index != nil {
		if i, ok := v.index[name]; ok {
			return v.members[i].val
		}
		return nil
	}
	for _, m := range v.members {
		if m.name == name {
			return m.val
		}
	}
	return nil
}

// set adds a member, or replaces the value of one of the same name.
func (v *value) set(name string, val *value) {
	if v.index != nil {
		if i, ok := v.index[name]; ok {
			v.members[i].val = val
			return
		}
	} else {
		for i := range v.members {
			if v.members[i].name == name {
				v.members[i].val = val
				return
			}
		}
	}
	v.members = append(v.members, member{name, val})
	if v.index == nil && len(v.members) >= indexFrom {
		v.index = make(map[string]int, 2*len(v.members))
		for i, m := range v.members {
			v.index[m.name] = i
		}
	} else if v.index != nil {
		v.index[name] = len(v.members) - 1
	}
}

// decode reads one JSON document of at most MaxDepth levels; anything but
// white space after it is an error.
func decode(data []byte) (*value, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	v, err := decodeValue(d, tok, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("more data follows the JSON value")
	}
	return v, nil
}

// tooDeep is the error of a document nested deeper than MaxDepth.
type tooDeep struct{}

func (tooDeep) Error() string { return fmt.Sprintf("nested deeper than %d levels", MaxDepth) }

// syntaxError words a decoder error; an empty document is said as such.
func syntaxError(err error) error {
	if err == io.EOF {
		return errors.New("no JSON value")
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the JSON ends early")
	}
	return err
}

// decodeValue builds the value that starts with tok.
func decodeValue(d *json.Decoder, tok json.Token, depth int) (*value, error) {
	switch t := tok.(type) {
	case nil:
		return &value{kind: kindNull}, nil
	case bool:
		return &value{kind: kindBool, boolean: t}, nil
	case string:
		return &value{kind: kindString, text: t}, nil
	case json.Number:
		n, err := parseNumber(string(t))
		if err != nil {
			return nil, err
		}
		return &value{kind: kindNumber, text: string(t), num: n}, nil
	case json.Delim:
		if depth >= MaxDepth {
			return nil, tooDeep{}
		}
		if t == '[' {
			return decodeArray(d, depth+1)
		}
		return decodeObject(d, depth+1)
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// decodeArray reads the items of an array whose '[' was read.
func decodeArray(d *json.Decoder, depth int) (*value, error) {
	v := &value{kind: kindArray, items: []*value{}}
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, syntaxError(err)
		}
		if tok == json.Delim(']') {
			return v, nil
		}
		item, err := decodeValue(d, tok, depth)
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
	}
}

// decodeObject reads the members of an object whose '{' was read.
func decodeObject(d *json.Decoder, depth int) (*value, error) {
	v := &value{kind: kindObject}
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, syntaxError(err)
		}
		if tok == json.Delim('}') {
			return v, nil
		}
		name, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected JSON token %v where a name belongs", tok)
		}
		if tok, err = d.Token(); err != nil {
			return nil, syntaxError(err)
		}
		val, err := decodeValue(d, tok, depth)
		if err != nil {
			return nil, err
		}
		v.set(name, val)
	}
}

// typeName is the JSON Schema name of the value's type; a number with no
// fraction is an "integer".
func (v *value) typeName() string {
	switch v.kind {
	case kindNull:
		return "null"
	case kindBool:
		return "boolean"
	case kindNumber:
		if v.num.isInteger() {
			return "integer"
		}
		return "number"
	case kindString:
		return "string"
	case kindArray:
		return "array"
	}
	return "object"
}

// toAny converts the value to Go's usual JSON shapes: nil, bool,
// json.Number (as written), string, []any and map[string]any.
func (v *value) toAny() any {
	switch v.kind {
	case kindBool:
		return v.boolean
	case kindNumber:
		return json.Number(v.text)
	case kindString:
		return v.text
	case kindArray:
		out := make([]any, len(v.items))
		for i, it := range v.items {
			out[i] = it.toAny()
		}
		return out
	case kindObject:
		out := make(map[string]any, len(v.members))
		for _, m := range v.members {
			out[m.name] = m.val.toAny()
		}
		return out
	}
	return nil
}

// key is a digest equal for two values exactly when they are equal as
// JSON: numbers by value (1.0 equals 1), objects whatever their member
// order. It is computed once per value, from the keys of its items and
// members, so comparing a large value many times costs its size once.
func (v *value) key() string {
	if v.digest != "" {
		return v.digest
	}
	var b []byte
	switch v.kind {
	case kindNull:
		b = []byte{'n'}
	case kindBool:
		b = []byte{'f'}
		if v.boolean {
			b[0] = 't'
		}
	case kindNumber:
		b = v.num.appendCanonical([]byte{'N'})
	case kindString:
		b = append([]byte{'s'}, v.text...)
	case kindArray:
		b = make([]byte, 0, 1+sha256.Size*len(v.items))
		b = append(b, '[')
		for _, it := range v.items {
			b = append(b, it.key()...)
		}
	case kindObject:
		b = make([]byte, 0, 1+(sha256.Size+8)*len(v.members))
		b = append(b, '{')
		for _, m := range sortedMembers(v.members) {
			name := sha256.Sum256([]byte(m.name))
			b = append(append(b, name[:]...), m.val.key()...)
		}
	}
	sum := sha256.Sum256(b)
	v.digest = string(sum[:])
	return v.digest
}

// sortedMembers returns a copy of the members sorted by name.
func sortedMembers(ms []member) []member {
	out := slices.Clone(ms)
	slices.SortFunc(out, func(a, b member) int { return strings.Compare(a.name, b.name) })
	return out
}
