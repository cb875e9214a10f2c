package flow

import (
	"encoding/binary"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
)

// DatagramHeaderLen is the size of the header of an MCP-Flow datagram.
const DatagramHeaderLen = 6

// DatagramChannel says what an MCP-Flow datagram carries.
type DatagramChannel uint8

// Channels of seed 000 §2.3. Other values decode fine and show as unknown.
const (
	ChannelReserved DatagramChannel = 0x00
	ChannelProgress DatagramChannel = 0x01 // ProgressDatagram in the negotiated encoding
	ChannelAudio    DatagramChannel = 0x02 // raw PCM, s16le mono
	ChannelLog      DatagramChannel = 0x03 // LogDatagram in the negotiated encoding
)

// String names the channel: "progress", "audio", …, or "unknown (0x07)".
func (c DatagramChannel) String() string {
	switch c {
	case ChannelReserved:
		return "reserved"
	case ChannelProgress:
		return "progress"
	case ChannelAudio:
		return "audio"
	case ChannelLog:
		return "log"
	}
	return fmt.Sprintf("unknown (0x%02x)", uint8(c))
}

// Known reports whether the channel is one the seed defines.
func (c DatagramChannel) Known() bool { return c <= ChannelLog }

// DatagramHeader opens an MCP-Flow datagram (seed 000 §2.3): channel u8,
// flags u8 (reserved, 0), request id u32 big-endian; the payload follows.
type DatagramHeader struct {
	Channel   DatagramChannel
	Flags     uint8
	RequestID uint32
}

// Append appends the 6 header bytes.
func (h DatagramHeader) Append(dst []byte) []byte {
	dst = append(dst, byte(h.Channel), h.Flags)
	return binary.BigEndian.AppendUint32(dst, h.RequestID)
}

// Fields annotates the header: "channel", "flags" and "request id".
func (h DatagramHeader) Fields() []proto.Field {
	flags := fmt.Sprintf("0x%02x", h.Flags)
	if h.Flags != 0 {
		flags += " (reserved bits set)"
	}
	channel := h.Channel.String()
	if h.Channel.Known() {
		channel = fmt.Sprintf("%s (0x%02x)", channel, uint8(h.Channel))
	}
	return []proto.Field{
		{Offset: 0, Len: 1, Name: "channel", Value: channel, Kind: proto.FieldHeader},
		{Offset: 1, Len: 1, Name: "flags", Value: flags, Kind: proto.FieldHeader},
		proto.UintField(2, 4, "request id", uint64(h.RequestID)),
	}
}

// ParseDatagramHeader decodes the header at the start of a datagram and
// returns the payload after it, with annotations of both. An unknown channel
// or set flags are not errors; a datagram shorter than the header is an
// error wrapping io.ErrUnexpectedEOF.
func ParseDatagramHeader(b []byte) (h DatagramHeader, payload []byte, fields []proto.Field, err error) {
	head, payload, err := proto.SplitHeader(b, DatagramHeaderLen, "datagram")
	if err != nil {
		return h, nil, nil, err
	}
	h = DatagramHeader{Channel: DatagramChannel(head[0]), Flags: head[1], RequestID: binary.BigEndian.Uint32(head[2:])}
	return h, payload, proto.PayloadField(h.Fields(), DatagramHeaderLen, len(payload)), nil
}
