package jsonrpc

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// CBORToJSON converts one CBOR data item to JSON, following RFC 8949 §6.1:
// integers become JSON integers (all 64-bit values, exactly), floats become
// JSON numbers (NaN and infinities become null), text strings become JSON
// strings (invalid UTF-8 is an error), maps must have text-string keys (any
// other key is an error naming its offset) and keep their key order, byte
// strings become base64url strings without padding (tag 22 asks for base64
// with padding, tag 23 for lower-case hex, tag 3 — a negative bignum — adds a
// leading "~"), other tags are dropped and their content converted, and
// undefined or unassigned simple values become null.
//
// The item must be well formed, end exactly at the end of body and stay
// within CBORMaxNestedLevels, CBORMaxArrayElements and CBORMaxMapPairs;
// anything else is an error, never a panic. The body is read once: the walk
// that writes the JSON is the well-formedness check.
func CBORToJSON(body []byte) ([]byte, error) {
	if len(body) == 0 {
		return nil, errCBOREmpty
	}
	c := cborToJSON{in: body, out: make([]byte, 0, len(body)+len(body)/2)}
	end, err := c.value(0, 0, bytesAsBase64URL)
	if err != nil {
		return nil, cborBodyError(len(body), err)
	}
	if err := cborTrailing(body, end); err != nil {
		return nil, err
	}
	return c.out, nil
}

// cborToJSON walks CBOR items, checking that they are well formed and
// within the limits, and writes their JSON to out.
type cborToJSON struct {
	in  []byte
	out []byte
}

// Tags of RFC 8949 that shape the conversion.
const (
	tagPosBignum     = 2
	tagNegBignum     = 3
	tagBase64URL     = 21
	tagBase64        = 22
	tagBase16        = 23
	bytesAsBase64URL = 0 // the default conversion of a byte string
)

// value converts the item at off, nested in depth arrays, maps and tags,
// and returns the offset after it. bytesEnc is the expected conversion (tag
// 21, 22 or 23) of the byte strings inside.
func (c *cborToJSON) value(off, depth int, bytesEnc uint64) (int, error) {
	h, err := readCBORHead(c.in, off)
	if err != nil {
		return 0, err
	}
	switch h.major {
	case cborUint:
		c.out = strconv.AppendUint(c.out, h.arg, 10)
	case cborNegint:
		c.out = appendNegint(c.out, h.arg)
	case cborBytes:
		b, next, err := c.stringContent(h, off)
		if err != nil {
			return 0, err
		}
		c.out = appendJSONByteString(c.out, "", b, bytesEnc)
		return next, nil
	case cborText:
		s, next, err := c.text(h, off)
		if err != nil {
			return 0, err
		}
		c.out = appendJSONString(c.out, s)
		return next, nil
	case cborArray, cborMap:
		if depth >= CBORMaxNestedLevels {
			return 0, cborTooDeep(off)
		}
		return c.container(h, off, depth+1, bytesEnc)
	case cborTag:
		return c.tag(h, off, depth, bytesEnc)
	default:
		return c.simple(h, off)
	}
	return h.next, nil
}

// appendNegint appends -1-n, which may lie below math.MinInt64.
func appendNegint(dst []byte, n uint64) []byte {
	if n == math.MaxUint64 {
		return append(append(dst, '-'), minNegintDigits...)
	}
	return strconv.AppendUint(append(dst, '-'), n+1, 10)
}

// text returns the content of the text string with head h at off, which
// must be valid UTF-8.
func (c *cborToJSON) text(h cborHead, off int) ([]byte, int, error) {
	s, next, err := c.stringContent(h, off)
	if err != nil {
		return nil, 0, err
	}
	if !utf8.Valid(s) {
		return nil, 0, fmt.Errorf("CBOR text string at offset %d is not valid UTF-8", off)
	}
	return s, next, nil
}

// stringContent returns the bytes of the byte or text string with head h at
// off, joining the chunks of an indefinite-length one, and the offset after
// it. A declared length is checked against the bytes left before anything
// is sliced.
func (c *cborToJSON) stringContent(h cborHead, off int) ([]byte, int, error) {
	if !h.indefinite() {
		if h.arg > uint64(len(c.in)-h.next) {
			return nil, 0, io.ErrUnexpectedEOF
		}
		end := h.next + int(h.arg)
		return c.in[h.next:end], end, nil
	}
	var joined []byte
	pos := h.next
	for {
		if pos < len(c.in) && c.in[pos] == cborBreak {
			return joined, pos + 1, nil
		}
		chunk, err := readCBORHead(c.in, pos)
		if err != nil {
			return nil, 0, err
		}
		if chunk.major != h.major || chunk.indefinite() {
			return nil, 0, malformed("chunk at offset %d of the indefinite-length %s at offset %d is not a definite-length %s",
				pos, cborMajorNames[h.major], off, cborMajorNames[h.major])
		}
		b, next, err := c.stringContent(chunk, pos)
		if err != nil {
			return nil, 0, err
		}
		joined = append(joined, b...)
		pos = next
	}
}

// members calls each for the members of the array or map with head h at
// off (each key-value pair of a map counts once) until the declared count
// or the break code, and returns the offset after the container. The count
// is checked against the limit before the first member is read.
func (c *cborToJSON) members(h cborHead, off int, each func(i uint64, pos int) (int, error)) (int, error) {
	limit := cborMaxMembers(h.major)
	if !h.indefinite() && h.arg > limit {
		return 0, cborCountLimit(h.major, off)
	}
	pos := h.next
	for i := uint64(0); ; i++ {
		if h.indefinite() {
			if pos < len(c.in) && c.in[pos] == cborBreak {
				return pos + 1, nil
			}
			if i == limit {
				return 0, cborCountLimit(h.major, off)
			}
		} else if i == h.arg {
			return pos, nil
		}
		var err error
		if pos, err = each(i, pos); err != nil {
			return 0, err
		}
	}
}

// container converts an array or a map whose members lie at depth.
func (c *cborToJSON) container(h cborHead, off, depth int, bytesEnc uint64) (int, error) {
	isMap := h.major == cborMap
	open, closing := byte('['), byte(']')
	if isMap {
		open, closing = '{', '}'
	}
	c.out = append(c.out, open)
	end, err := c.members(h, off, func(i uint64, pos int) (int, error) {
		if i > 0 {
			c.out = append(c.out, ',')
		}
		if isMap {
			var err error
			if pos, err = c.key(pos, depth); err != nil {
				return 0, err
			}
			c.out = append(c.out, ':')
		}
		return c.value(pos, depth, bytesEnc)
	})
	if err != nil {
		return 0, err
	}
	c.out = append(c.out, closing)
	return end, nil
}

// keyText returns the text of the map key at off, which must be a text
// string; tags around it are dropped but count as levels of nesting.
func (c *cborToJSON) keyText(off, depth int) ([]byte, int, error) {
	k := off
	for {
		h, err := readCBORHead(c.in, k)
		if err != nil {
			return nil, 0, err
		}
		switch h.major {
		case cborTag:
			if depth >= CBORMaxNestedLevels {
				return nil, 0, cborTooDeep(k)
			}
			depth++
			k = h.next
			continue
		case cborText:
			return c.text(h, k)
		}
		if h.major == cborSimple && h.indefinite() {
			return nil, 0, malformed("break code at offset %d stands in place of the key of a pair", k)
		}
		return nil, 0, fmt.Errorf("CBOR map key at offset %d has type %s; only text-string keys map to JSON", off, cborMajorNames[h.major])
	}
}

// key converts a map key.
func (c *cborToJSON) key(off, depth int) (int, error) {
	s, next, err := c.keyText(off, depth)
	if err != nil {
		return 0, err
	}
	c.out = appendJSONString(c.out, s)
	return next, nil
}

// tag converts a tagged item at off: bignums and expected-conversion tags
// shape the byte strings inside, other tags are dropped.
func (c *cborToJSON) tag(h cborHead, off, depth int, bytesEnc uint64) (int, error) {
	if depth >= CBORMaxNestedLevels {
		return 0, cborTooDeep(off)
	}
	switch h.arg {
	case tagBase64URL, tagBase64, tagBase16:
		return c.value(h.next, depth+1, h.arg)
	case tagNegBignum:
		content, err := readCBORHead(c.in, h.next)
		if err != nil {
			return 0, err
		}
		if content.major == cborBytes {
			b, next, err := c.stringContent(content, h.next)
			if err != nil {
				return 0, err
			}
			c.out = appendJSONByteString(c.out, "~", b, bytesAsBase64URL)
			return next, nil
		}
	case tagPosBignum:
		return c.value(h.next, depth+1, bytesAsBase64URL)
	}
	return c.value(h.next, depth+1, bytesEnc)
}

// simple converts major type 7: false, true, null, floats; other simple
// values, undefined included, become null.
func (c *cborToJSON) simple(h cborHead, off int) (int, error) {
	var f float64
	switch h.info {
	case 20:
		c.out = append(c.out, "false"...)
		return h.next, nil
	case 21:
		c.out = append(c.out, "true"...)
		return h.next, nil
	case 25:
		f = halfToFloat64(uint16(h.arg))
	case 26:
		f = float64(math.Float32frombits(uint32(h.arg)))
	case 27:
		f = math.Float64frombits(h.arg)
	case cborIndefinite:
		return 0, malformed("break code at offset %d ends no indefinite-length item", off)
	default:
		c.out = append(c.out, "null"...)
		return h.next, nil
	}
	c.out = appendJSONFloat(c.out, f)
	return h.next, nil
}

// appendJSONByteString writes a byte string as a JSON string in the
// expected conversion, after prefix; none of the alphabets needs escaping.
func appendJSONByteString(dst []byte, prefix string, b []byte, enc uint64) []byte {
	dst = append(append(dst, '"'), prefix...)
	switch enc {
	case tagBase64:
		dst = base64.StdEncoding.AppendEncode(dst, b)
	case tagBase16:
		dst = hex.AppendEncode(dst, b)
	default:
		dst = base64.RawURLEncoding.AppendEncode(dst, b)
	}
	return append(dst, '"')
}

// halfToFloat64 widens an IEEE 754 half-precision float.
func halfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(mant, -24)
	case 0x1f:
		if mant != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(mant+1024, exp-25)
}
