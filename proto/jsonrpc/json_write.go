package jsonrpc

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// appendJSONFloat writes f as encoding/json does; NaN and infinities, which
// JSON cannot hold, become null.
func appendJSONFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Write 1e-07 as 1e-7, like encoding/json.
		if n := len(dst) - start; n >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

// appendJSONString writes s (valid UTF-8) as a JSON string, escaping only
// what JSON requires.
func appendJSONString[S ~string | ~[]byte](dst []byte, s S) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// QuoteJSON encodes s as a JSON string, escaping only what JSON requires
// (<, > and & stay as they are, unlike encoding/json's default). Invalid
// UTF-8 is replaced by U+FFFD, as encoding/json does.
func QuoteJSON(s string) []byte {
	return appendJSONString(nil, strings.ToValidUTF8(s, "\uFFFD"))
}

// Member is one key of a JSON object with its raw value; a slice of them
// keeps the object's key order, which maps do not.
type Member struct {
	Key   string
	Value json.RawMessage
}

// EncodeObject writes members as one JSON object, in their order. Each
// value must be valid JSON.
func EncodeObject(members []Member) json.RawMessage {
	b := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, strings.ToValidUTF8(m.Key, "\uFFFD"))
		b = append(b, ':')
		b = append(b, m.Value...)
	}
	return append(b, '}')
}
