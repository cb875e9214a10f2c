package recordings

import (
	"encoding/base64"
	"strconv"
	"unicode/utf8"
)

// appendFrameLine appends l, a frame line, as one JSON object and a
// newline: the members of line's JSON tags, in their order, zero values
// left out, as encoding/json would write them without HTML escaping. A
// flood of small messages is recorded at several times the speed of
// reflection.
func appendFrameLine(b []byte, l *line) []byte {
	b = append(b, `{"k":"frame"`...)
	b = appendInt(b, `,"t":`, l.T)
	if l.Seq != 0 {
		b = strconv.AppendUint(append(b, `,"seq":`...), l.Seq, 10)
	}
	b = appendStr(b, `,"dir":`, l.Dir)
	b = appendStr(b, `,"conn":`, l.Conn)
	b = appendStr(b, `,"ch":`, l.Ch)
	b = appendInt(b, `,"req":`, int64(l.Req))
	b = appendInt(b, `,"tag":`, int64(l.Tag))
	b = appendInt(b, `,"dch":`, int64(l.DCh))
	b = appendBytes(b, `,"text":`, `,"b64":`, l.Text, l.B64)
	b = appendInt(b, `,"size":`, int64(l.Size))
	b = appendStr(b, `,"enc":`, l.Enc)
	if len(l.Fields) > 0 {
		b = append(b, `,"fields":[`...)
		for i, f := range l.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendField(b, f)
		}
		b = append(b, ']')
	}
	if len(l.Msg) > 0 {
		b = append(b, `,"msg":[`...)
		for i, n := range l.Msg {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		b = append(b, ']')
	}
	b = appendBytes(b, `,"mtext":`, `,"mb64":`, l.MText, l.MB64)
	b = appendStr(b, `,"menc":`, l.MEnc)
	b = appendStr(b, `,"violation":`, l.Viol)
	b = appendStr(b, `,"err":`, l.Err)
	return append(b, "}\n"...)
}

// appendInt appends a member holding n unless n is 0.
func appendInt(b []byte, member string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, member...), n, 10)
}

// appendStr appends a member holding s unless s is empty.
func appendStr(b []byte, member, s string) []byte {
	if s == "" {
		return b
	}
	return appendJSONString(append(b, member...), s)
}

// appendBytes appends the text member when text is set, else the base64
// member when raw is not empty.
func appendBytes(b []byte, textMember, b64Member string, text *string, raw []byte) []byte {
	switch {
	case text != nil:
		return appendJSONString(append(b, textMember...), *text)
	case len(raw) > 0:
		b = append(append(b, b64Member...), '"')
		return append(base64.StdEncoding.AppendEncode(b, raw), '"')
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD
// (as encoding/json does), everything else as it is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			default:
				b = append(b, `\u202`...)
				b = append(b, hexDigits[r&0xF])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendField appends annotation f as JSON.
func appendField(b []byte, f fieldLine) []byte {
	b = strconv.AppendInt(append(b, `{"o":`...), int64(f.O), 10)
	b = strconv.AppendInt(append(b, `,"n":`...), int64(f.N), 10)
	b = appendJSONString(append(b, `,"f":`...), f.F)
	b = appendStr(b, `,"v":`, f.V)
	b = appendInt(b, `,"k":`, int64(f.K))
	return append(b, '}')
}
