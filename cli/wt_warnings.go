package cli

import (
	"sync"

	"github.com/mcpscope/mcpscope/capture"
)

// streamWarningLimit is how many stream warnings a run prints.
const streamWarningLimit = 5

// streamWarnings prints a warning on stderr for each execution stream the
// transport refused or could not read (an injected stream, a header cut
// short), the first streamWarningLimit of them.
type streamWarnings struct {
	mu    sync.Mutex
	out   *lineWriter
	shown int
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and keeps
// none of its bytes.
func (*streamWarnings) ReleasesUnheld() bool { return true }

// Append warns about a stream frame that carries an error.
func (w *streamWarnings) Append(f *capture.Frame) uint64 {
	if f.Err == nil || f.Dir != capture.In || f.Chan.Kind != capture.Stream {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shown < streamWarningLimit {
		w.shown++
		w.out.Println("warning: " + oneLine(f.Err.Error()))
	}
	return 0
}
