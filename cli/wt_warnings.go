package cli

import (
	"github.com/mcpscope/mcpscope/capture"
)

// streamWarnings prints a warning on stderr for each execution stream the
// transport refused or could not read (an injected stream, a header cut
// short), the first warningLimit of them, and counts the rest for Flush.
type streamWarnings struct {
	warningCap
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and keeps
// none of its bytes.
func (*streamWarnings) ReleasesUnheld() bool { return true }

// Append warns about a stream frame that carries an error.
func (w *streamWarnings) Append(f *capture.Frame) uint64 {
	if f.Err == nil || f.Dir != capture.In || f.Chan.Kind != capture.Stream {
		return 0
	}
	w.Warn("warnings about execution streams", func() string { return oneLine(f.Err.Error()) })
	return 0
}
