package proto

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/fxamacker/cbor/v2"
)

// Limits on a CBOR body, so that hostile input cannot exhaust the stack or
// memory. JSONToCBOR refuses to write nesting that CBORToJSON would refuse.
const (
	CBORMaxNestedLevels  = 128     // arrays, maps and tags nested in one another
	CBORMaxArrayElements = 1 << 20 // elements of one array
	CBORMaxMapPairs      = 1 << 20 // key-value pairs of one map
)

// cborModes builds, once, the decoding and diagnostic modes with the limits.
var cborModes = sync.OnceValues(func() (modes struct {
	dec  cbor.DecMode
	diag cbor.DiagMode
}, err error) {
	modes.dec, err = cbor.DecOptions{
		MaxNestedLevels:  CBORMaxNestedLevels,
		MaxArrayElements: CBORMaxArrayElements,
		MaxMapPairs:      CBORMaxMapPairs,
		IndefLength:      cbor.IndefLengthAllowed,
		TagsMd:           cbor.TagsAllowed,
	}.DecMode()
	if err != nil {
		return modes, fmt.Errorf("CBOR decoding mode: %w", err)
	}
	modes.diag, err = cbor.DiagOptions{
		MaxNestedLevels:  CBORMaxNestedLevels,
		MaxArrayElements: CBORMaxArrayElements,
		MaxMapPairs:      CBORMaxMapPairs,
	}.DiagMode()
	if err != nil {
		return modes, fmt.Errorf("CBOR diagnostic mode: %w", err)
	}
	return modes, nil
})

// cborWellformed checks that body is exactly one well-formed CBOR data item
// within the limits, and phrases the failure for a person.
func cborWellformed(body []byte) error {
	modes, err := cborModes()
	if err != nil {
		return err
	}
	err = modes.dec.Wellformed(body)
	var extra *cbor.ExtraneousDataError
	switch {
	case err == nil:
		return nil
	case len(body) == 0 || errors.Is(err, io.EOF):
		return errors.New("CBOR body is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("CBOR body of %d bytes is truncated: %w", len(body), err)
	case errors.As(err, &extra):
		return fmt.Errorf("CBOR body has trailing bytes after its data item: %w", err)
	}
	return fmt.Errorf("CBOR body is malformed: %w", err)
}

// DiagnoseCBOR renders one CBOR data item in diagnostic notation (RFC 8949
// §8), for display: {"jsonrpc": "2.0", "id": 1, …}. Byte strings show as
// h'…'. Trailing bytes, truncation and excess nesting are errors.
func DiagnoseCBOR(body []byte) (string, error) {
	if err := cborWellformed(body); err != nil {
		return "", err
	}
	modes, err := cborModes()
	if err != nil {
		return "", err
	}
	s, err := modes.diag.Diagnose(body)
	if err != nil {
		return "", fmt.Errorf("CBOR body cannot be shown in diagnostic notation: %w", err)
	}
	return s, nil
}

// cborCodec encodes bodies as CBOR: the JSON data model of the message,
// transcoded by JSONToCBOR and CBORToJSON.
type cborCodec struct{}

// Encoding returns EncCBOR.
func (cborCodec) Encoding() Encoding { return EncCBOR }

// Encode returns the CBOR body of m.
func (cborCodec) Encode(m *Message) ([]byte, error) {
	j, err := m.EncodeJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding message: %w", err)
	}
	return JSONToCBOR(j)
}

// Decode decodes one CBOR message.
func (cborCodec) Decode(body []byte) (*Message, error) {
	j, err := CBORToJSON(body)
	if err != nil {
		return nil, fmt.Errorf("not a JSON-RPC message: %w", err)
	}
	m, err := DecodeMessage(j)
	if m != nil {
		m.Raw = body
	}
	return m, err
}

// DecodeBatch decodes one CBOR message or a CBOR array of them.
func (c cborCodec) DecodeBatch(body []byte) ([]*Message, bool, error) {
	if err := cborWellformed(body); err != nil {
		return nil, false, fmt.Errorf("not a JSON-RPC message: %w", err)
	}
	h, err := readCBORHead(body, 0)
	if err != nil {
		return nil, false, err
	}
	if h.major != cborArray {
		m, err := c.Decode(body)
		if m == nil {
			return nil, false, err
		}
		return []*Message{m}, false, err // with err, m carries it as its Violation
	}
	var msgs []*Message
	off := h.next
	for i := 0; h.indefinite() || uint64(i) < h.arg; i++ {
		if h.indefinite() && off < len(body) && body[off] == cborBreak {
			break
		}
		w := cborToJSON{in: body}
		end, err := w.value(off, 1, bytesAsBase64URL)
		if err != nil {
			return msgs, true, fmt.Errorf("batch item %d: %w", i, err)
		}
		m, err := DecodeMessage(w.out)
		if err != nil {
			return msgs, true, fmt.Errorf("batch item %d: %w", i, err)
		}
		m.Raw = body[off:end]
		msgs = append(msgs, m)
		off = end
	}
	if len(msgs) == 0 {
		return nil, true, errors.New("empty batch")
	}
	return msgs, true, nil
}

// Marshal encodes v as CBOR through its JSON form.
func (cborCodec) Marshal(v any) ([]byte, error) {
	j, err := jsonMarshal(v)
	if err != nil {
		return nil, err
	}
	return JSONToCBOR(j)
}

// Unmarshal decodes v from CBOR through its JSON form.
func (cborCodec) Unmarshal(body []byte, v any) error {
	j, err := CBORToJSON(body)
	if err != nil {
		return err
	}
	return jsonUnmarshal(j, v)
}
