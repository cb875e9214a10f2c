package proto

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// JSONToCBOR converts one JSON value to one CBOR data item holding the same
// data: objects become maps with text-string keys in the order the JSON had
// them, strings become text strings, integral numbers (no fraction, no
// exponent) become CBOR integers when they fit in 64 bits (a larger one
// becomes a float), other numbers become float32 when that is exact and
// float64 otherwise. Lengths are definite and heads are shortest-form.
// Nesting deeper than CBORMaxNestedLevels is refused, so whatever this
// writes, CBORToJSON reads back.
func JSONToCBOR(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	t := jsonToCBOR{dec: dec, out: make([]byte, 0, len(body))}
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, errors.New("JSON body is empty")
	}
	if err != nil {
		return nil, fmt.Errorf("JSON body is malformed: %w", err)
	}
	if err := t.value(tok, 0); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("JSON body has data after its value at offset %d", dec.InputOffset())
	}
	return t.out, nil
}

// jsonToCBOR transcodes the tokens of a json.Decoder into CBOR.
type jsonToCBOR struct {
	dec *json.Decoder
	out []byte
}

// value writes the JSON value that starts with tok.
func (t *jsonToCBOR) value(tok json.Token, depth int) error {
	switch v := tok.(type) {
	case json.Delim:
		return t.container(v, depth+1)
	case string:
		t.out = appendCBORText(t.out, v)
	case json.Number:
		out, err := appendCBORNumber(t.out, string(v))
		if err != nil {
			return err
		}
		t.out = out
	case bool:
		t.out = append(t.out, cborSimple<<5|20+boolByte(v))
	case nil:
		t.out = append(t.out, cborSimple<<5|22)
	default:
		return fmt.Errorf("JSON token %v is unexpected", tok)
	}
	return nil
}

// maxHeadLen is the longest CBOR head: the initial byte and an 8-byte argument.
const maxHeadLen = 9

// container writes an array or object. The head is written once the number
// of members is known: a maximal head is reserved, then the members are
// moved back over the unused part of it.
func (t *jsonToCBOR) container(open json.Delim, depth int) error {
	if depth > CBORMaxNestedLevels {
		return fmt.Errorf("JSON body nests deeper than %d levels", CBORMaxNestedLevels)
	}
	major := cborArray
	if open == '{' {
		major = cborMap
	}
	start := len(t.out)
	t.out = append(t.out, make([]byte, maxHeadLen)...)
	n := uint64(0)
	for t.dec.More() {
		if major == cborMap {
			key, err := t.dec.Token()
			if err != nil {
				return fmt.Errorf("JSON body is malformed: %w", err)
			}
			s, ok := key.(string)
			if !ok {
				return fmt.Errorf("JSON object key %v is not a string", key)
			}
			t.out = appendCBORText(t.out, s)
		}
		tok, err := t.dec.Token()
		if err != nil {
			return fmt.Errorf("JSON body is malformed: %w", err)
		}
		if err := t.value(tok, depth); err != nil {
			return err
		}
		n++
	}
	if _, err := t.dec.Token(); err != nil { // the closing delimiter
		return fmt.Errorf("JSON body is malformed: %w", err)
	}
	var head [maxHeadLen]byte
	h := appendCBORHead(head[:0], major, n)
	copy(t.out[start:], h)
	members := t.out[start+maxHeadLen:]
	copy(t.out[start+len(h):], members)
	t.out = t.out[:start+len(h)+len(members)]
	return nil
}

// appendCBORText appends a definite-length text string.
func appendCBORText(dst []byte, s string) []byte {
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

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
