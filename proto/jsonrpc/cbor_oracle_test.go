package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The oracles the direct CBOR paths are checked against: the token-by-token
// transcoder JSONToCBOR used to be, and the JSON detour Encode and Decode
// used to take.

// jsonToCBORByTokens converts JSON to CBOR through encoding/json's tokens.
func jsonToCBORByTokens(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	t := tokensToCBOR{dec: dec}
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("first token: %w", err)
	}
	if err := t.value(tok, 0); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the value")
	}
	return t.out, nil
}

// tokensToCBOR writes the CBOR of a json.Decoder's tokens.
type tokensToCBOR struct {
	dec *json.Decoder
	out []byte
}

// value writes the value that starts with tok.
func (t *tokensToCBOR) value(tok json.Token, depth int) error {
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
		t.out = append(t.out, cborSimple<<5|20)
		if v {
			t.out[len(t.out)-1]++
		}
	case nil:
		t.out = append(t.out, cborNull)
	default:
		return fmt.Errorf("unexpected token %v", tok)
	}
	return nil
}

// container writes an array or object, its head once its members are counted.
func (t *tokensToCBOR) container(open json.Delim, depth int) error {
	if depth > CBORMaxNestedLevels {
		return errors.New("too deep")
	}
	major := cborArray
	if open == '{' {
		major = cborMap
	}
	outer := t.out
	t.out = nil
	n := uint64(0)
	for t.dec.More() {
		for range int(major-cborArray) + 1 { // a key and a value, or a value
			tok, err := t.dec.Token()
			if err != nil {
				return err
			}
			if err := t.value(tok, depth); err != nil {
				return err
			}
		}
		n++
	}
	if _, err := t.dec.Token(); err != nil {
		return err
	}
	t.out = append(appendCBORHead(outer, major, n), t.out...)
	return nil
}

// encodeCBORViaJSON is what Encode(EncCBOR, m) used to be.
func encodeCBORViaJSON(m *Message) ([]byte, error) {
	j, err := m.EncodeJSON()
	if err != nil {
		return nil, err
	}
	return JSONToCBOR(j)
}

// decodeCBORViaJSON is what Decode(EncCBOR, body) used to be.
func decodeCBORViaJSON(body []byte) (*Message, error) {
	j, err := CBORToJSON(body)
	if err != nil {
		return nil, err
	}
	m, err := DecodeMessage(j)
	if m != nil {
		m.Raw = body
	}
	return m, err
}
