package webtransport

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpscope/mcpscope/capture"
)

// StreamFileName is the file an execution stream is saved to by
// FileStreamSink: "<request id>-<stream tag>.bin".
func StreamFileName(key capture.StreamKey) string {
	return fmt.Sprintf("%d-%d.bin", key.ReqID, key.Tag)
}

// FileStreamSink returns a Config.StreamSink that saves each execution
// stream to dir/StreamFileName(key), creating dir when needed and
// replacing an older file of the same name.
func FileStreamSink(dir string) func(capture.StreamKey) (io.WriteCloser, error) {
	return func(key capture.StreamKey) (io.WriteCloser, error) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating the stream directory: %w", err)
		}
		f, err := os.OpenFile(filepath.Join(dir, StreamFileName(key)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return nil, fmt.Errorf("creating the stream file: %w", err)
		}
		return f, nil
	}
}
