package webtransport

import "github.com/mcpscope/mcpscope/capture"

// chunkCopier makes the copies of payload chunks that their frames hold
// (the read buffer is reused). When the sink keeps nothing of a frame it
// returns 0 for (see capture.ReleasesUnheld), the copy of such a chunk is reused for
// the next one: past the head the capture keeps, a long stream then costs
// no allocation and no fresh memory per chunk.
type chunkCopier struct {
	reuse bool   // the sink keeps nothing of a frame it returns 0 for
	spare []byte // a copy the sink did not keep
}

// frame returns the frame of chunk b, its bytes copied into the spare copy
// when there is one.
func (c *chunkCopier) frame(key capture.StreamKey, b []byte) *capture.Frame {
	f := chunkFrame(key, b, c.spare)
	c.spare = nil
	return f
}

// reported takes the copy of f back when the sink, having returned seq for
// it, keeps nothing of it.
func (c *chunkCopier) reported(f *capture.Frame, seq uint64) {
	if c.reuse && seq == 0 {
		c.spare = f.Raw
	}
}
