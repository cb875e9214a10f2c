package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// AppendJSON appends the compact JSON encoding of m to dst, the same bytes
// EncodeJSON returns. The envelope of a request, notification or result
// with an integer or null id and a plain method name is written directly
// around its params or result (compacted and checked by encoding/json);
// any other message, or one whose members need escaping, is encoded by
// encoding/json as a whole.
func (m *Message) AppendJSON(dst []byte) ([]byte, error) {
	if m.JSONRPC == "" {
		m.JSONRPC = Version
	}
	if out, ok := m.appendEnvelope(dst); ok {
		return out, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// appendEnvelope writes m's members in Message's field order, as
// encoding/json would; false (and dst unchanged in length) when m holds
// something encoding/json would write differently or refuse: an error
// object, a string id, text to escape, params or result that are not
// valid JSON or hold what it escapes for HTML.
func (m *Message) appendEnvelope(dst []byte) ([]byte, bool) {
	if m.Error != nil || (m.ID != nil && m.ID.kind == idString) ||
		!plainText(m.JSONRPC) || !plainText(m.Method) ||
		!plainJSON(m.Params) || !plainJSON(m.Result) {
		return dst, false
	}
	start := len(dst)
	dst = append(dst, `{"jsonrpc":"`...)
	dst = append(append(dst, m.JSONRPC...), '"')
	if m.ID != nil {
		dst = append(dst, `,"id":`...)
		if m.ID.kind == idInt {
			dst = strconv.AppendInt(dst, m.ID.num, 10)
		} else {
			dst = append(dst, "null"...)
		}
	}
	if m.Method != "" {
		dst = append(dst, `,"method":"`...)
		dst = append(append(dst, m.Method...), '"')
	}
	var ok bool
	if dst, ok = appendCompact(dst, `,"params":`, m.Params); !ok {
		return dst[:start], false
	}
	if dst, ok = appendCompact(dst, `,"result":`, m.Result); !ok {
		return dst[:start], false
	}
	return append(dst, '}'), true
}

// appendCompact appends the member name and raw compacted, unless raw is
// empty (omitempty); false when raw is not valid JSON.
func appendCompact(dst []byte, name string, raw json.RawMessage) ([]byte, bool) {
	if len(raw) == 0 {
		return dst, true
	}
	buf := bytes.NewBuffer(append(dst, name...))
	if err := json.Compact(buf, raw); err != nil {
		return dst, false
	}
	return buf.Bytes(), true
}

// plainText reports whether encoding/json writes s between quotes as it
// is: printable ASCII with nothing it escapes.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// plainJSON reports whether raw holds none of the bytes encoding/json
// escapes when it compacts a json.RawMessage for HTML: <, > and &, and
// the lead byte of U+2028 and U+2029.
func plainJSON(raw json.RawMessage) bool {
	for _, c := range raw {
		if c == '<' || c == '>' || c == '&' || c == 0xe2 {
			return false
		}
	}
	return true
}
