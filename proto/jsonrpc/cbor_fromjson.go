package jsonrpc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONToCBOR converts one JSON value to one CBOR data item holding the same
// data: objects become maps with text-string keys in the order the JSON had
// them, strings become text strings (invalid UTF-8 and lone surrogates
// become U+FFFD, as encoding/json reads them), integral numbers (no
// fraction, no exponent) become CBOR integers when they fit in 64 bits (a
// larger one becomes a float), other numbers become float32 when that is
// exact and float64 otherwise. Lengths are definite and heads are
// shortest-form. Nesting deeper than CBORMaxNestedLevels and containers
// larger than CBORMaxArrayElements or CBORMaxMapPairs are refused, so
// whatever this writes, CBORToJSON reads back.
//
// The body is scanned once, byte by byte, and the CBOR written as it goes.
func JSONToCBOR(body []byte) ([]byte, error) {
	t := jsonToCBOR{in: body, out: make([]byte, 0, len(body))}
	if err := t.whole(0); err != nil {
		return nil, err
	}
	return t.out, nil
}

// appendJSONAsCBOR appends the CBOR of the JSON value raw, which lies
// inside depth containers of the item being written.
func appendJSONAsCBOR(dst, raw []byte, depth int) ([]byte, error) {
	t := jsonToCBOR{in: raw, out: dst}
	err := t.whole(depth)
	return t.out, err
}

// jsonToCBOR scans JSON text and writes CBOR.
type jsonToCBOR struct {
	in   []byte
	pos  int // next byte of in to read
	out  []byte
	text []byte // a string with escapes or invalid UTF-8, unquoted
}

// whole converts the one value that, with white space around it, must fill
// the input.
func (t *jsonToCBOR) whole(depth int) error {
	t.skipSpace()
	if t.pos == len(t.in) {
		return errors.New("JSON body is empty")
	}
	if err := t.value(depth); err != nil {
		return err
	}
	t.skipSpace()
	if t.pos != len(t.in) {
		return fmt.Errorf("JSON body has data after its value at offset %d", t.pos)
	}
	return nil
}

// skipSpace moves past JSON white space.
func (t *jsonToCBOR) skipSpace() {
	for t.pos < len(t.in) {
		switch t.in[t.pos] {
		case ' ', '\t', '\n', '\r':
			t.pos++
		default:
			return
		}
	}
}

// syntaxError says what the byte at pos is and what should have been there.
func (t *jsonToCBOR) syntaxError(want string) error {
	if t.pos >= len(t.in) {
		return fmt.Errorf("JSON body is malformed: it ends at offset %d, before %s", t.pos, want)
	}
	return fmt.Errorf("JSON body is malformed: %q at offset %d where %s should be", t.in[t.pos:t.pos+1], t.pos, want)
}

// value writes the value at pos, which lies inside depth containers.
func (t *jsonToCBOR) value(depth int) error {
	t.skipSpace()
	if t.pos == len(t.in) {
		return t.syntaxError("a value")
	}
	switch c := t.in[t.pos]; {
	case c == '{' || c == '[':
		return t.container(depth + 1)
	case c == '"':
		return t.str()
	case c == 't':
		return t.literal("true", cborSimple<<5|21)
	case c == 'f':
		return t.literal("false", cborSimple<<5|20)
	case c == 'n':
		return t.literal("null", cborSimple<<5|22)
	case c == '-' || '0' <= c && c <= '9':
		return t.number()
	}
	return t.syntaxError("a value")
}

// literal writes true, false or null.
func (t *jsonToCBOR) literal(word string, b byte) error {
	if len(t.in)-t.pos < len(word) || string(t.in[t.pos:t.pos+len(word)]) != word {
		return t.syntaxError(word)
	}
	t.pos += len(word)
	t.out = append(t.out, b)
	return nil
}

// container writes the array or object at pos, whose members lie inside
// depth containers. The head is written once the number of members is
// known: one byte is kept for it, and the members move up in the rare case
// that the head needs more.
func (t *jsonToCBOR) container(depth int) error {
	if depth > CBORMaxNestedLevels {
		return fmt.Errorf("JSON body nests deeper than %d levels at offset %d", CBORMaxNestedLevels, t.pos)
	}
	major, closing := cborArray, byte(']')
	if t.in[t.pos] == '{' {
		major, closing = cborMap, '}'
	}
	open := t.pos
	t.pos++
	start := len(t.out)
	t.out = append(t.out, 0)
	n := uint64(0)
	t.skipSpace()
	if t.pos < len(t.in) && t.in[t.pos] == closing {
		t.pos++
		t.out[start] = major << 5
		return nil
	}
	for {
		if major == cborMap {
			if err := t.key(); err != nil {
				return err
			}
		}
		if err := t.value(depth); err != nil {
			return err
		}
		if n++; n > cborMaxMembers(major) {
			return fmt.Errorf("JSON %s at offset %d has more than %d members", cborMajorNames[major], open, cborMaxMembers(major))
		}
		t.skipSpace()
		if t.pos < len(t.in) && t.in[t.pos] == ',' {
			t.pos++
			continue
		}
		if t.pos < len(t.in) && t.in[t.pos] == closing {
			t.pos++
			break
		}
		return t.syntaxError(fmt.Sprintf("',' or '%c'", closing))
	}
	t.closeHead(start, major, n)
	return nil
}

// key writes an object key and moves past the colon after it.
func (t *jsonToCBOR) key() error {
	t.skipSpace()
	if t.pos == len(t.in) || t.in[t.pos] != '"' {
		return t.syntaxError("an object key")
	}
	if err := t.str(); err != nil {
		return err
	}
	t.skipSpace()
	if t.pos == len(t.in) || t.in[t.pos] != ':' {
		return t.syntaxError("':'")
	}
	t.pos++
	return nil
}

// closeHead writes the head of a container of n members at out[start],
// where one byte was kept for it.
func (t *jsonToCBOR) closeHead(start int, major byte, n uint64) {
	if n < 24 {
		t.out[start] = major<<5 | byte(n)
		return
	}
	var buf [maxHeadLen]byte
	head := appendCBORHead(buf[:0], major, n)
	grow := len(head) - 1
	t.out = append(t.out, head[:grow]...) // room; overwritten below
	copy(t.out[start+len(head):], t.out[start+1:len(t.out)-grow])
	copy(t.out[start:], head)
}

// maxHeadLen is the longest CBOR head: the initial byte and an 8-byte argument.
const maxHeadLen = 9

// str writes the string at pos (the opening quote) as a text string. A
// string without escapes, control characters or bytes above 0x7f is copied
// as it is; any other goes through unquote.
func (t *jsonToCBOR) str() error {
	start := t.pos + 1
	for i := start; i < len(t.in); i++ {
		switch c := t.in[i]; {
		case c == '"':
			t.out = appendCBORText(t.out, t.in[start:i])
			t.pos = i + 1
			return nil
		case c == '\\' || c < 0x20 || c >= 0x80:
			return t.unquote(start, i)
		}
	}
	t.pos = len(t.in)
	return t.syntaxError("the closing '\"' of the string at offset " + strconv.Itoa(start-1))
}

// unquote writes the string whose content starts at start, from i on
// decoded as encoding/json decodes it: escapes resolved, a \u escape of a
// lone surrogate and each byte that is not part of valid UTF-8 replaced by
// U+FFFD.
func (t *jsonToCBOR) unquote(start, i int) error {
	t.text = append(t.text[:0], t.in[start:i]...)
	for i < len(t.in) {
		switch c := t.in[i]; {
		case c == '"':
			t.out = appendCBORText(t.out, t.text)
			t.pos = i + 1
			return nil
		case c == '\\':
			n, err := t.escape(i)
			if err != nil {
				return err
			}
			i += n
		case c < 0x20:
			t.pos = i
			return t.syntaxError("a character of the string (control characters must be escaped)")
		case c < utf8.RuneSelf:
			t.text = append(t.text, c)
			i++
		default:
			r, size := utf8.DecodeRune(t.in[i:])
			t.text = utf8.AppendRune(t.text, r) // an invalid byte gives RuneError, U+FFFD
			i += size
		}
	}
	t.pos = len(t.in)
	return t.syntaxError("the closing '\"' of the string at offset " + strconv.Itoa(start-1))
}

// escape appends the character of the escape sequence at i and returns its
// length: a surrogate pair of \u escapes is one character of 12 bytes.
func (t *jsonToCBOR) escape(i int) (int, error) {
	if i+1 == len(t.in) {
		t.pos = i + 1
		return 0, t.syntaxError("an escaped character")
	}
	c := t.in[i+1]
	if c != 'u' {
		b := jsonEscapes[c]
		if b == 0 {
			t.pos = i + 1
			return 0, t.syntaxError("an escaped character")
		}
		t.text = append(t.text, b)
		return 2, nil
	}
	r, ok := hex4(t.in[i+2:])
	if !ok {
		t.pos = i + 2
		return 0, t.syntaxError("four hexadecimal digits")
	}
	if !utf16.IsSurrogate(r) {
		t.text = utf8.AppendRune(t.text, r)
		return 6, nil
	}
	if rest := t.in[i+6:]; len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
		if r2, ok := hex4(rest[2:]); ok {
			if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
				t.text = utf8.AppendRune(t.text, pair)
				return 12, nil
			}
		}
	}
	t.text = utf8.AppendRune(t.text, utf8.RuneError)
	return 6, nil
}

// jsonEscapes maps the letter of each one-letter JSON escape to its byte.
var jsonEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendCBORText appends a definite-length text string.
func appendCBORText[S ~string | ~[]byte](dst []byte, s S) []byte {
	return append(appendCBORHead(dst, cborText, uint64(len(s))), s...)
}

// appendCBORInt appends a signed integer as major type 0 or 1.
func appendCBORInt(dst []byte, n int64) []byte {
	if n < 0 {
		return appendCBORHead(dst, cborNegint, uint64(-(n + 1)))
	}
	return appendCBORHead(dst, cborUint, uint64(n))
}

// errNumberRange is wrapped when a JSON number is too large for any CBOR number.
var errNumberRange = errors.New("number is out of range for a float64")

// minNegintDigits spells 2^64: -2^64 is the least CBOR integer.
const minNegintDigits = "18446744073709551616"

// number writes the number at pos after checking its syntax. An integer of
// up to 19 digits, which always fits in 64 bits, is read here; any other
// goes to appendCBORNumber.
func (t *jsonToCBOR) number() error {
	start := t.pos
	i := start
	if t.in[i] == '-' {
		i++
	}
	digits := i
	switch {
	case i < len(t.in) && t.in[i] == '0':
		i++
	case i < len(t.in) && '1' <= t.in[i] && t.in[i] <= '9':
		i = t.digits(i)
	default:
		t.pos = i
		return t.syntaxError("a digit")
	}
	integral := true
	if i < len(t.in) && t.in[i] == '.' {
		integral = false
		if i = t.digits(i + 1); i == -1 {
			return t.syntaxError("a digit")
		}
	}
	if i < len(t.in) && (t.in[i] == 'e' || t.in[i] == 'E') {
		integral = false
		i++
		if i < len(t.in) && (t.in[i] == '+' || t.in[i] == '-') {
			i++
		}
		if i = t.digits(i); i == -1 {
			return t.syntaxError("a digit")
		}
	}
	t.pos = i
	if integral && i-digits <= 19 {
		var u uint64
		for _, d := range t.in[digits:i] {
			u = u*10 + uint64(d-'0')
		}
		switch {
		case digits == start || u == 0:
			t.out = appendCBORHead(t.out, cborUint, u)
		default:
			t.out = appendCBORHead(t.out, cborNegint, u-1)
		}
		return nil
	}
	out, err := appendCBORNumber(t.out, string(t.in[start:i]))
	if err != nil {
		return err
	}
	t.out = out
	return nil
}

// digits moves past one or more decimal digits from i and returns the
// offset after them, or -1 (with pos at i) when there is none.
func (t *jsonToCBOR) digits(i int) int {
	start := i
	for i < len(t.in) && '0' <= t.in[i] && t.in[i] <= '9' {
		i++
	}
	if i == start {
		t.pos = i
		return -1
	}
	return i
}

// appendCBORNumber appends the JSON number s (already syntax-checked).
func appendCBORNumber(dst []byte, s string) ([]byte, error) {
	if !strings.ContainsAny(s, ".eE") {
		if digits, neg := strings.CutPrefix(s, "-"); neg {
			if digits == minNegintDigits {
				return appendCBORHead(dst, cborNegint, math.MaxUint64), nil
			}
			if u, err := strconv.ParseUint(digits, 10, 64); err == nil {
				if u == 0 {
					return appendCBORHead(dst, cborUint, 0), nil
				}
				return appendCBORHead(dst, cborNegint, u-1), nil
			}
		} else if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return appendCBORHead(dst, cborUint, u), nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("JSON number %s: %w", s, errNumberRange)
	}
	return appendCBORFloat(dst, f), nil
}

// appendCBORFloat appends f as a float32 when that is exact, else as a float64.
func appendCBORFloat(dst []byte, f float64) []byte {
	if f32 := float32(f); float64(f32) == f {
		return binary.BigEndian.AppendUint32(append(dst, cborSimple<<5|26), math.Float32bits(f32))
	}
	return binary.BigEndian.AppendUint64(append(dst, cborSimple<<5|27), math.Float64bits(f))
}
