package capture

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// FuzzStoreAppend feeds frames with arbitrary bytes, sizes and annotations
// (the store reads annotations to find a stream's payload) and checks that
// the store never panics and keeps its bounds.
func FuzzStoreAppend(f *testing.F) {
	f.Add([]byte("HHHHHHHHpayload"), 0, 8, 8, 7, uint8(1), 0, false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), 40, 0, 0, 0, uint8(0), 0, true)
	f.Add(bytes.Repeat([]byte{0xff}, 300), -5, -1, 1<<30, -3, uint8(1), 999, false)
	f.Fuzz(func(t *testing.T, raw []byte, size, hdrLen, bodyOff, bodyLen int, kind uint8, tag int, withMsg bool) {
		s := NewStore(Config{MaxFrames: 4, MaxBytes: 256, StreamHead: 16, StreamTail: 8, MaxStreams: 2})
		for i := range 6 {
			fr := &Frame{
				Raw:  raw,
				Size: size,
				Chan: Channel{Kind: ChannelKind(kind % 5), Tag: uint32(tag + i%3)},
				Fields: []proto.Field{
					{Offset: 0, Len: hdrLen, Kind: proto.FieldHeader},
					{Offset: bodyOff, Len: bodyLen, Kind: proto.FieldBody},
				},
			}
			if withMsg {
				fr.Msg = &jsonrpc.Message{Result: json.RawMessage(raw), Raw: raw}
			}
			seq := s.Append(fr)
			if seq != 0 && (fr.Kept != len(fr.Raw) || fr.Size < fr.Kept) {
				t.Fatalf("Kept %d, len %d, Size %d", fr.Kept, len(fr.Raw), fr.Size)
			}
			st := s.Stats()
			if st.RawBytes+st.DecodedBytes > 256 || st.Frames > 4 || st.Streams > 2 || st.DroppedBytes < 0 {
				t.Fatalf("bounds broken: %+v", st)
			}
		}
		for _, ss := range s.Streams() {
			if len(s.StreamHead(ss.Key)) > 16 || len(s.StreamTail(ss.Key)) > 8 || ss.Bytes < int64(ss.TailLen) {
				t.Fatalf("stream bounds broken: %+v", ss)
			}
		}
	})
}
