package capture

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// control returns a control frame of n bytes whose first bytes name i.
func control(i, n int) *Frame {
	raw := make([]byte, n)
	copy(raw, fmt.Sprintf("#%d;", i))
	return &Frame{Dir: In, Conn: "c", Chan: Channel{Kind: Control}, Raw: raw, Size: n, Enc: proto.EncJSON}
}

// chunk returns an MCP-Flow execution stream chunk: the first carries the
// 8-byte header annotated as such, later ones alternate between a FieldBody
// annotation and none, so both ways of finding the payload are exercised.
func chunk(key StreamKey, first bool, i int, payload []byte, at time.Time) *Frame {
	f := &Frame{Time: at, Dir: In, Conn: key.Conn, Chan: Channel{Kind: Stream, ReqID: key.ReqID, Tag: key.Tag}, Enc: proto.EncBinary}
	if first {
		raw := make([]byte, 8, 8+len(payload))
		binary.BigEndian.PutUint32(raw, key.ReqID)
		binary.BigEndian.PutUint32(raw[4:], key.Tag)
		f.Raw = append(raw, payload...)
		f.Fields = []proto.Field{
			{Offset: 0, Len: 4, Name: "request id", Kind: proto.FieldHeader},
			{Offset: 4, Len: 4, Name: "stream tag", Kind: proto.FieldHeader},
			{Offset: 8, Len: len(payload), Name: "payload", Kind: proto.FieldBody},
		}
	} else {
		f.Raw = payload
		if i%2 == 0 {
			f.Fields = []proto.Field{{Offset: 0, Len: len(payload), Name: "payload", Kind: proto.FieldBody}}
		}
	}
	f.Size = len(f.Raw)
	return f
}

// seqs returns the Seq of each frame.
func seqs(fs []*Frame) []uint64 {
	out := make([]uint64, len(fs))
	for i, f := range fs {
		out[i] = f.Seq
	}
	return out
}

// seqRange returns from, from+1, …, to.
func seqRange(from, to uint64) []uint64 {
	var out []uint64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}
