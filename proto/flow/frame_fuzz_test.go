package flow

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

func FuzzControlFrame(f *testing.F) {
	f.Add(AppendControlFrame(nil, []byte(prototest.SeedInitialize)), uint32(0))
	f.Add([]byte{0, 0, 0, 0xDA, '{'}, uint32(0))
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF}, uint32(1024))
	f.Add([]byte{0, 0}, uint32(0))
	f.Fuzz(func(t *testing.T, b []byte, max uint32) {
		limit := int(max % (1 << 20))
		frame, body, fields, err := ParseControlFrame(b, limit)
		if err != nil {
			var tooLarge *FrameTooLargeError
			if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.As(err, &tooLarge) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if !bytes.Equal(AppendControlFrame(nil, body), frame) || !bytes.HasPrefix(b, frame) {
			t.Fatal("re-encoding the frame does not give its bytes")
		}
		prototest.CheckFieldsCover(t, fields, len(frame))
	})
}

func FuzzExecStreamHeader(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0x2A, 0, 0, 0, 1, 'x'})
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		prototest.FixedHeaderCase(t, b, ExecStreamHeaderLen, func(b []byte) ([]byte, []byte, []proto.Field, error) {
			h, p, fl, err := ParseExecStreamHeader(b)
			return h.Append(nil), p, fl, err
		})
	})
}

func FuzzDatagramHeader(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0x2A, '{', '}'})
	f.Add([]byte{0x7F, 0xFF, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		prototest.FixedHeaderCase(t, b, DatagramHeaderLen, func(b []byte) ([]byte, []byte, []proto.Field, error) {
			h, p, fl, err := ParseDatagramHeader(b)
			return h.Append(nil), p, fl, err
		})
		if h, payload, _, err := ParseDatagramHeader(b); err == nil {
			// Payload decoders must not panic on whatever a datagram carries.
			for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
				switch h.Channel {
				case ChannelProgress:
					_, _ = DecodeProgressDatagram(enc, payload)
				default:
					_, _ = DecodeLogDatagram(enc, payload)
				}
			}
		}
	})
}
