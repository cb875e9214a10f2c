package jsonrpc

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/fxamacker/cbor/v2"
	"github.com/mcpscope/mcpscope/proto"
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

// cborWellformed checks, with fxamacker's decoder, that body is exactly one
// well-formed CBOR data item within the limits, and phrases the failure for
// a person. DiagnoseCBOR shows any such item; the codec's own walk
// (CBORToJSON, cborMessageReader) checks the bodies it converts.
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
		return errCBOREmpty
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("CBOR body of %d bytes is truncated: %w", len(body), err)
	case errors.As(err, &extra):
		return fmt.Errorf("%w: %w", ErrCBORTrailingBytes, err)
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

// cborCodec encodes bodies as CBOR: the JSON data model of the message.
// Messages are encoded and decoded directly (see appendCBORMessage and
// cborMessageReader); payload values go through their JSON form.
type cborCodec struct{}

// Encoding returns EncCBOR.
func (cborCodec) Encoding() proto.Encoding { return proto.EncCBOR }

// Encode returns the CBOR body of m.
func (cborCodec) Encode(m *Message) ([]byte, error) {
	return appendCBORMessage(make([]byte, 0, cborMessageSize(m)), m)
}

// Decode decodes one CBOR message. Bytes after its data item are an error
// wrapping ErrCBORTrailingBytes, a key twice in its map one wrapping
// ErrCBORDuplicateKey; both come with the message.
func (cborCodec) Decode(body []byte) (*Message, error) {
	if len(body) == 0 {
		return nil, fmt.Errorf("not a JSON-RPC message: %w", errCBOREmpty)
	}
	r := newCBORMessageReader(body)
	defer r.release()
	m, end, err := r.item(0, 0)
	if m == nil {
		return nil, err
	}
	if terr := cborTrailing(body, end); terr != nil && err == nil {
		if m.Violation == nil {
			m, _, err = r.violation(m, 0, len(body), fmt.Errorf("not a JSON-RPC message: %w", terr), false)
			return m, err
		}
	}
	return m, err
}

// DecodeBatch decodes one CBOR message or a CBOR array of them; each
// message keeps its own bytes in Raw.
func (c cborCodec) DecodeBatch(body []byte) ([]*Message, bool, error) {
	if len(body) == 0 {
		return nil, false, fmt.Errorf("not a JSON-RPC message: %w", errCBOREmpty)
	}
	h, err := readCBORHead(body, 0)
	if err != nil {
		return nil, false, fmt.Errorf("not a JSON-RPC message: %w", cborBodyError(len(body), err))
	}
	if h.major != cborArray {
		m, err := c.Decode(body)
		if m == nil {
			return nil, false, err
		}
		return []*Message{m}, false, err // with err, m carries it as its Violation
	}
	r := newCBORMessageReader(body)
	defer r.release()
	var msgs []*Message
	var itemErr error
	end, err := r.members(h, 0, func(i uint64, pos int) (int, error) {
		m, end, err := r.item(pos, 1)
		if err != nil {
			itemErr = fmt.Errorf("batch item %d: %w", i, err)
			return 0, itemErr
		}
		msgs = append(msgs, m)
		return end, nil
	})
	switch {
	case itemErr != nil:
		return nil, true, itemErr
	case err != nil:
		return nil, true, fmt.Errorf("not a JSON-RPC message: %w", cborBodyError(len(body), err))
	case len(msgs) == 0:
		return nil, true, errors.New("empty batch")
	}
	if err := cborTrailing(body, end); err != nil {
		return nil, true, fmt.Errorf("not a JSON-RPC message: %w", err)
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
