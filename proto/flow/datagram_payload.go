package flow

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// ProgressDatagram is the payload of a datagram on ChannelProgress (DESIGN
// §3.2), in the negotiated encoding.
type ProgressDatagram struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"` // 0 when unknown
	Message  string  `json:"message,omitempty"`
}

// LogDatagram is the payload of a datagram on ChannelLog (DESIGN §3.2), in
// the negotiated encoding. Data is any JSON value.
type LogDatagram struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
}

// Encode returns the payload in enc (EncJSON or EncCBOR).
func (p ProgressDatagram) Encode(enc proto.Encoding) ([]byte, error) { return jsonrpc.Marshal(enc, p) }

// Encode returns the payload in enc (EncJSON or EncCBOR).
func (l LogDatagram) Encode(enc proto.Encoding) ([]byte, error) { return jsonrpc.Marshal(enc, l) }

// DecodeProgressDatagram decodes a progress payload in enc.
func DecodeProgressDatagram(enc proto.Encoding, payload []byte) (ProgressDatagram, error) {
	return decodeDatagramPayload[ProgressDatagram](enc, payload, ChannelProgress)
}

// DecodeLogDatagram decodes a log payload in enc.
func DecodeLogDatagram(enc proto.Encoding, payload []byte) (LogDatagram, error) {
	return decodeDatagramPayload[LogDatagram](enc, payload, ChannelLog)
}

// decodeDatagramPayload decodes the payload of a datagram on channel.
func decodeDatagramPayload[T any](enc proto.Encoding, payload []byte, channel DatagramChannel) (T, error) {
	var v T
	if err := jsonrpc.Unmarshal(enc, payload, &v); err != nil {
		return v, fmt.Errorf("%s datagram payload (%s): %w", channel, jsonrpc.EncodingName(enc), err)
	}
	return v, nil
}
