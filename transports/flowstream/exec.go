package flowstream

import (
	"errors"
	"fmt"
	"io"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// ReadExecStreamHeader reads the header from the start of an execution
// stream. raw holds the bytes read, also when the stream ends before the
// header is whole (an error wrapping io.ErrUnexpectedEOF).
func ReadExecStreamHeader(r io.Reader) (h flow.ExecStreamHeader, raw []byte, fields []proto.Field, err error) {
	raw, err = readHeader(r, flow.ExecStreamHeaderLen, "execution stream")
	if err != nil {
		return h, raw, nil, err
	}
	h, _, fields, err = flow.ParseExecStreamHeader(raw)
	return h, raw, fields, err
}

// readHeader reads a fixed-size header from r. It returns what it read, all
// of it or, with an error, the part before the stream ended; an end before
// the first byte also counts as truncation (io.ErrUnexpectedEOF).
func readHeader(r io.Reader, size int, unit string) ([]byte, error) {
	b := make([]byte, size)
	n, err := io.ReadFull(r, b)
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return b[:n], fmt.Errorf("%s header ended after %d of %d bytes: %w", unit, n, size, io.ErrUnexpectedEOF)
	}
	return b[:n], fmt.Errorf("reading %s header: %w", unit, err)
}
