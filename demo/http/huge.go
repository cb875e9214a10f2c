package demohttp

import (
	"bytes"
	"strconv"
)

// hugeChunk is how many bytes of a huge event go out per write.
const hugeChunk = 64 << 10

// hugeWrap is what surrounds the padding of a huge event's data, so that
// the data is one JSON value of the stream's dialect when it is long
// enough: a notifications/message on MCP streams, a result fragment on
// seed 004's.
type hugeWrap struct{ prefix, suffix string }

// mcpHuge pads the data of a notifications/message.
var mcpHuge = hugeWrap{
	prefix: `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"misbehave","data":"`,
	suffix: `"}}`,
}

// sendHuge writes a huge event whose data is it.huge bytes: the stream's
// wrap around 'x' padding (or only padding, when the size is smaller than
// the wrap), generated as it goes out, never held whole.
func (wr *writer) sendHuge(st writeState, it item) error {
	name := it.name
	if name == "" {
		name = wr.s.cfg.name
	}
	wrap := wr.s.cfg.huge
	if int64(len(wrap.prefix)+len(wrap.suffix)) > it.huge {
		wrap = hugeWrap{}
	}
	if err := wr.send(st, []byte("event: "+name+"\ndata: "+wrap.prefix)); err != nil {
		return err
	}
	pad := bytes.Repeat([]byte{'x'}, hugeChunk)
	for left := it.huge - int64(len(wrap.prefix)+len(wrap.suffix)); left > 0; {
		n := min(left, hugeChunk)
		if err := wr.writeRaw(pad[:n]); err != nil {
			return err
		}
		left -= n
	}
	return wr.flushWrite([]byte(wrap.suffix + "\n\n"))
}

// hugeText describes a huge event for the misbehave result.
func hugeText(n int64) string {
	return "sent one event whose data is " + strconv.FormatInt(n, 10) + " bytes"
}
