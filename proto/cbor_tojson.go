package proto

import (
	"fmt"
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
// anything else is an error, never a panic.
func CBORToJSON(body []byte) ([]byte, error) {
	if err := cborWellformed(body); err != nil {
		return nil, err
	}
	c := cborToJSON{in: body, out: make([]byte, 0, len(body)+len(body)/2)}
	if _, err := c.value(0, 0, 0); err != nil {
		return nil, err
	}
	return c.out, nil
}

// cborToJSON walks a well-formed CBOR item and writes JSON.
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

// value converts the item at off and returns the offset after it. bytesEnc
// is the expected conversion (tag 21, 22 or 23) of the byte strings inside.
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
		b, next, err := c.stringContent(h)
		if err != nil {
			return 0, err
		}
		c.out = appendJSONString(c.out, encodeByteString(b, bytesEnc))
		return next, nil
	case cborText:
		s, next, err := c.stringContent(h)
		if err != nil {
			return 0, err
		}
		if !utf8.Valid(s) {
			return 0, fmt.Errorf("CBOR text string at offset %d is not valid UTF-8", off)
		}
		c.out = appendJSONString(c.out, string(s))
		return next, nil
	case cborArray, cborMap:
		if depth >= CBORMaxNestedLevels {
			return 0, fmt.Errorf("CBOR item at offset %d nests deeper than %d levels", off, CBORMaxNestedLevels)
		}
		return c.container(h, depth+1, bytesEnc)
	case cborTag:
		return c.tag(h, depth, bytesEnc)
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

// stringContent returns the bytes of a byte or text string, joining the
// chunks of an indefinite-length one.
func (c *cborToJSON) stringContent(h cborHead) ([]byte, int, error) {
	if !h.indefinite() {
		if h.arg > uint64(len(c.in)-h.next) {
			return nil, 0, fmt.Errorf("CBOR %s of %d bytes runs past the end of the body", cborMajorNames[h.major], h.arg)
		}
		end := h.next + int(h.arg)
		return c.in[h.next:end], end, nil
	}
	var joined []byte
	off := h.next
	for {
		if off < len(c.in) && c.in[off] == cborBreak {
			return joined, off + 1, nil
		}
		chunk, err := readCBORHead(c.in, off)
		if err != nil {
			return nil, 0, err
		}
		if chunk.major != h.major || chunk.indefinite() {
			return nil, 0, fmt.Errorf("CBOR chunk at offset %d is not a definite %s", off, cborMajorNames[h.major])
		}
		b, next, err := c.stringContent(chunk)
		if err != nil {
			return nil, 0, err
		}
		joined = append(joined, b...)
		off = next
	}
}

// container converts an array or a map.
func (c *cborToJSON) container(h cborHead, depth int, bytesEnc uint64) (int, error) {
	open, closing := byte('['), byte(']')
	if h.major == cborMap {
		open, closing = '{', '}'
	}
	c.out = append(c.out, open)
	off := h.next
	for i := uint64(0); h.indefinite() || i < h.arg; i++ {
		if h.indefinite() && off < len(c.in) && c.in[off] == cborBreak {
			off++
			break
		}
		if i > 0 {
			c.out = append(c.out, ',')
		}
		var err error
		if h.major == cborMap {
			if off, err = c.key(off, depth); err != nil {
				return 0, err
			}
			c.out = append(c.out, ':')
		}
		if off, err = c.value(off, depth, bytesEnc); err != nil {
			return 0, err
		}
	}
	c.out = append(c.out, closing)
	return off, nil
}

// key converts a map key, which must be a text string (tags around it are dropped).
func (c *cborToJSON) key(off, depth int) (int, error) {
	k := off
	for {
		h, err := readCBORHead(c.in, k)
		if err != nil {
			return 0, err
		}
		if h.major == cborTag {
			k = h.next
			continue
		}
		if h.major != cborText {
			return 0, fmt.Errorf("CBOR map key at offset %d has type %s; only text-string keys map to JSON", off, cborMajorNames[h.major])
		}
		return c.value(k, depth, bytesAsBase64URL)
	}
}

// tag converts a tagged item: bignums and expected-conversion tags shape the
// byte strings inside, other tags are dropped.
func (c *cborToJSON) tag(h cborHead, depth int, bytesEnc uint64) (int, error) {
	if depth >= CBORMaxNestedLevels {
		return 0, fmt.Errorf("CBOR tag at offset %d nests deeper than %d levels", h.next, CBORMaxNestedLevels)
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
			b, next, err := c.stringContent(content)
			if err != nil {
				return 0, err
			}
			c.out = appendJSONString(c.out, "~"+encodeByteString(b, bytesAsBase64URL))
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
		return 0, fmt.Errorf("CBOR break code at offset %d ends no indefinite-length item", off)
	default:
		c.out = append(c.out, "null"...)
		return h.next, nil
	}
	c.out = appendJSONFloat(c.out, f)
	return h.next, nil
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
