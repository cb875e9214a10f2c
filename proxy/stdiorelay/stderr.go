package stdiorelay

import (
	"bytes"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// maxStderrLine is how much of one stderr line is captured; the host gets
// all of it.
const maxStderrLine = 64 << 10

// copyStderr writes the server's stderr to the host's as it comes, and
// captures it line by line as Stderr frames. A line past maxStderrLine is
// captured cut, its true size kept.
func (r *relay) copyStderr() {
	buf := make([]byte, 32<<10)
	var line []byte // the line being gathered, up to maxStderrLine
	size := 0       // its true size
	hostErr := r.cfg.HostErr
	for {
		n, err := r.stderr.Read(buf)
		if n > 0 {
			if hostErr != nil {
				if _, werr := hostErr.Write(buf[:n]); werr != nil {
					hostErr = nil // a host's stderr that is gone is gone; the capture goes on
				}
			}
			for rest := buf[:n]; len(rest) > 0; {
				i := bytes.IndexByte(rest, '\n')
				chunk := rest
				if i >= 0 {
					chunk = rest[:i+1]
				}
				rest = rest[len(chunk):]
				size += len(chunk)
				line = append(line, chunk[:min(len(chunk), maxStderrLine-len(line))]...)
				if i >= 0 {
					r.captureStderr(line, size)
					line, size = nil, 0
				}
			}
		}
		if err != nil {
			if size > 0 {
				r.captureStderr(line, size)
			}
			return
		}
	}
}

// captureStderr captures one stderr line: raw is its first bytes, size its
// true length.
func (r *relay) captureStderr(raw []byte, size int) {
	f := &capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stderr},
		Raw: raw, Size: size, Enc: proto.EncText}
	if size > len(raw) {
		f.Kept = len(raw)
		f.Fields = []proto.Field{{Offset: 0, Len: len(raw), Name: "text (head)", Kind: proto.FieldBody}}
	} else {
		f.Fields = jsonrpc.LineFields(raw)
	}
	r.sess.CaptureOn("", f)
}
