package jsonrpc

import (
	"fmt"
	"unicode/utf8"
)

// appendCBORMessage appends the CBOR body of m: the map, in the order and
// with the members json.Marshal writes, with the envelope's own fields
// written as CBOR heads and only params, result and error data transcoded
// from their JSON. jsonrpc defaults to "2.0", as in EncodeJSON.
func appendCBORMessage(dst []byte, m *Message) ([]byte, error) {
	if m.JSONRPC == "" {
		m.JSONRPC = Version
	}
	n := uint64(1)
	for _, present := range [...]bool{m.ID != nil, m.Method != "", len(m.Params) > 0, len(m.Result) > 0, m.Error != nil} {
		if present {
			n++
		}
	}
	dst = appendCBORHead(dst, cborMap, n)
	dst = appendCBORString(appendCBORText(dst, "jsonrpc"), m.JSONRPC)
	if m.ID != nil {
		dst = m.ID.appendCBOR(appendCBORText(dst, "id"))
	}
	if m.Method != "" {
		dst = appendCBORString(appendCBORText(dst, "method"), m.Method)
	}
	var err error
	if len(m.Params) > 0 {
		if dst, err = appendJSONAsCBOR(appendCBORText(dst, "params"), m.Params, 1); err != nil {
			return nil, fmt.Errorf("encoding message params: %w", err)
		}
	}
	if len(m.Result) > 0 {
		if dst, err = appendJSONAsCBOR(appendCBORText(dst, "result"), m.Result, 1); err != nil {
			return nil, fmt.Errorf("encoding message result: %w", err)
		}
	}
	if e := m.Error; e != nil {
		dst = appendCBORHead(appendCBORText(dst, "error"), cborMap, 2+uint64(min(len(e.Data), 1)))
		dst = appendCBORInt(appendCBORText(dst, "code"), int64(e.Code))
		dst = appendCBORString(appendCBORText(dst, "message"), e.Message)
		if len(e.Data) > 0 {
			if dst, err = appendJSONAsCBOR(appendCBORText(dst, "data"), e.Data, 2); err != nil {
				return nil, fmt.Errorf("encoding message error data: %w", err)
			}
		}
	}
	return dst, nil
}

// cborMessageSize guesses the size of m's CBOR body from its parts; CBOR is
// rarely longer than the JSON it comes from.
func cborMessageSize(m *Message) int {
	n := 48 + len(m.Method) + len(m.Params) + len(m.Result)
	if m.ID != nil {
		n += len(m.ID.str)
	}
	if m.Error != nil {
		n += 32 + len(m.Error.Message) + len(m.Error.Data)
	}
	return n
}

// appendCBORString appends a Go string as a text string the way
// encoding/json would write it and JSONToCBOR read it back: each byte that
// is not part of valid UTF-8 becomes U+FFFD.
func appendCBORString(dst []byte, s string) []byte {
	if utf8.ValidString(s) {
		return appendCBORText(dst, s)
	}
	valid := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		valid = utf8.AppendRune(valid, r)
		i += size
	}
	return appendCBORText(dst, valid)
}
