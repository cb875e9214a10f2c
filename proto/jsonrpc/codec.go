package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
)

// Codec turns JSON-RPC messages and payload values into the bodies of one
// encoding and back. Both codecs share the JSON data model: a CBOR body is
// one data item holding the same object a JSON body would, with text-string
// keys, and a value is (un)marshalled through its json tags in both.
type Codec interface {
	// Encoding names the encoding of the bodies.
	Encoding() proto.Encoding
	// Encode returns the body of m (jsonrpc defaults to "2.0").
	Encode(m *Message) ([]byte, error)
	// Decode decodes one message, keeps body in Raw and validates it like
	// DecodeMessage: a body that breaks a JSON-RPC rule gives an
	// *EnvelopeError (CheckEnvelope), returned with a message carrying it as
	// its Violation when the body's id could be read.
	Decode(body []byte) (*Message, error)
	// DecodeBatch decodes one message or a batch (an array of messages);
	// each message keeps its own bytes in Raw. With an error, msgs holds
	// what can still be delivered, violation messages included, like
	// DecodeJSON.
	DecodeBatch(body []byte) (msgs []*Message, batch bool, err error)
	// Marshal encodes a payload value such as a ProgressDatagram.
	Marshal(v any) ([]byte, error)
	// Unmarshal decodes a payload value.
	Unmarshal(body []byte, v any) error
}

// The two codecs of JSON-RPC bodies.
var (
	JSONCodec Codec = jsonCodec{}
	CBORCodec Codec = cborCodec{}
)

// ErrUnsupportedEncoding is wrapped by the errors of CodecFor and of the
// helpers below when an encoding has no codec (binary, text).
var ErrUnsupportedEncoding = errors.New("encoding has no JSON-RPC codec")

// CodecFor returns the codec of enc: EncJSON or EncCBOR.
func CodecFor(enc proto.Encoding) (Codec, error) {
	switch enc {
	case proto.EncJSON:
		return JSONCodec, nil
	case proto.EncCBOR:
		return CBORCodec, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedEncoding, EncodingName(enc))
}

// Encode returns the body of m in enc.
func Encode(enc proto.Encoding, m *Message) ([]byte, error) {
	c, err := CodecFor(enc)
	if err != nil {
		return nil, err
	}
	return c.Encode(m)
}

// Decode decodes one message from a body in enc, keeping body in m.Raw. A
// message that decodes but breaks a JSON-RPC rule is returned with the error.
func Decode(enc proto.Encoding, body []byte) (*Message, error) {
	c, err := CodecFor(enc)
	if err != nil {
		return nil, err
	}
	return c.Decode(body)
}

// DecodeBatch decodes one message or a batch from a body in enc.
func DecodeBatch(enc proto.Encoding, body []byte) (msgs []*Message, batch bool, err error) {
	c, err := CodecFor(enc)
	if err != nil {
		return nil, false, err
	}
	return c.DecodeBatch(body)
}

// Marshal encodes a payload value in enc.
func Marshal(enc proto.Encoding, v any) ([]byte, error) {
	c, err := CodecFor(enc)
	if err != nil {
		return nil, err
	}
	return c.Marshal(v)
}

// Unmarshal decodes a payload value from a body in enc.
func Unmarshal(enc proto.Encoding, body []byte, v any) error {
	c, err := CodecFor(enc)
	if err != nil {
		return err
	}
	return c.Unmarshal(body, v)
}

// EncodingName names enc without trusting it to be in range.
func EncodingName(enc proto.Encoding) string {
	if enc <= proto.EncText {
		return enc.String()
	}
	return fmt.Sprintf("encoding %d", uint8(enc))
}

// jsonCodec encodes bodies as compact JSON.
type jsonCodec struct{}

// Encoding returns EncJSON.
func (jsonCodec) Encoding() proto.Encoding { return proto.EncJSON }

// Encode returns the compact JSON body of m.
func (jsonCodec) Encode(m *Message) ([]byte, error) { return m.EncodeJSON() }

// Decode decodes one JSON message.
func (jsonCodec) Decode(body []byte) (*Message, error) { return DecodeMessage(body) }

// DecodeBatch decodes one JSON message or a batch.
func (jsonCodec) DecodeBatch(body []byte) ([]*Message, bool, error) { return DecodeJSON(body) }

// Marshal encodes v as JSON.
func (jsonCodec) Marshal(v any) ([]byte, error) { return jsonMarshal(v) }

// Unmarshal decodes v from JSON.
func (jsonCodec) Unmarshal(body []byte, v any) error { return jsonUnmarshal(body, v) }

// jsonMarshal is json.Marshal with the error phrased for a payload.
func jsonMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	return b, nil
}

// jsonUnmarshal is json.Unmarshal with the error phrased for a payload.
func jsonUnmarshal(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("decoding %T: %w", v, err)
	}
	return nil
}
