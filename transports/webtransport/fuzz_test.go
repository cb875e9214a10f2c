package webtransport

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

func FuzzDatagramFrame(f *testing.F) {
	prog, _ := flow.ProgressDatagram{Progress: 1, Total: 2, Message: "m"}.Encode(proto.EncCBOR)
	f.Add(append(flow.DatagramHeader{Channel: flow.ChannelProgress, RequestID: 42}.Append(nil), prog...), true)
	f.Add(append(flow.DatagramHeader{Channel: flow.ChannelLog, RequestID: 1}.Append(nil), `{"level":"info"}`...), false)
	f.Add([]byte{0x02, 0x00, 0, 0, 0, 1, 0xff, 0xfe}, false)
	f.Add([]byte{0x09, 0x01}, true)
	f.Fuzz(func(t *testing.T, b []byte, cbor bool) {
		enc := proto.EncJSON
		if cbor {
			enc = proto.EncCBOR
		}
		fr, m := datagramFrame(b, enc)
		if fr.Size != len(b) || len(b) > 0 && &fr.Raw[0] != &b[0] {
			t.Fatalf("frame does not hold the datagram: size %d of %d", fr.Size, len(b))
		}
		if m != nil {
			if fr.Err != nil || fr.Chan.Ch != uint8(flow.ChannelProgress) || m.Method != mcp.MethodNotifyProgress || m.Raw != nil {
				t.Fatalf("progress message from frame %+v: %+v", fr, m)
			}
			var p mcp.ProgressNotificationParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
			if n, _ := p.ProgressToken.Int(); n != int64(fr.Chan.ReqID) {
				t.Fatalf("token %s for request %d", p.ProgressToken, fr.Chan.ReqID)
			}
		}
		for _, fd := range fr.Fields {
			if fd.Offset < 0 || fd.Offset+fd.Len > len(b) {
				t.Fatalf("field %+v outside %d bytes", fd, len(b))
			}
		}
	})
}

func FuzzStreamRefs(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"ref/stream","streamTag":1,"mimeType":"text/plain","size":10}]}`))
	f.Add([]byte(`{"content":[{"type":"text","text":"ref/stream"},{"type":"ref/stream","streamTag":"x"}]}`))
	f.Add([]byte(`{"content":{"type":"ref/stream"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, ref := range streamRefs(b) {
			if ref.Type != ContentStreamRef {
				t.Fatalf("ref of type %q", ref.Type)
			}
		}
	})
}

// FuzzStreamTable drives the correlation table with arbitrary event
// sequences: it must never panic, never count a negative number of open
// streams, and await must end once the session is over.
func FuzzStreamTable(f *testing.F) {
	f.Add([]byte{0, 1, 2, 1, 1, 3, 1, 1, 4, 1, 1})
	f.Add([]byte{2, 9, 9, 0, 9, 0, 5, 9, 9, 3, 9, 9})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := newStreamTable()
		for i := 0; i+2 < len(ops); i += 3 {
			id, tag := uint32(ops[i+1]%4), uint32(ops[i+2]%3)
			switch ops[i] % 6 {
			case 0:
				s.sent(id)
			case 1:
				s.answered(id, []StreamRef{{Type: ContentStreamRef, StreamTag: tag}})
			case 2:
				s.open(id, tag)
			case 3:
				s.ended(id, tag, int64(ops[i+2]), nil)
			case 4:
				s.remoteError(StreamErrorParams{RequestID: id, StreamTag: tag, Error: "x"})
			case 5:
				s.cancelled(id)
			}
			if s.openStreams() < 0 {
				t.Fatalf("open streams %d after op %d", s.openStreams(), i/3)
			}
		}
		s.finish()
		// Streams still open are read by nobody here: end them first.
		for id := range uint32(4) {
			for tag := range uint32(3) {
				s.ended(id, tag, 0, nil)
			}
		}
		if s.openStreams() != 0 {
			t.Fatalf("%d streams open after every one ended", s.openStreams())
		}
		for id := range uint32(4) {
			_ = s.await(context.Background(), id) // must not block
		}
	})
}
