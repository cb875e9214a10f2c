package cli

import (
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/findings"
)

// findingsShown is how many findings of one code --findings prints
// before it only counts them.
const findingsShown = 20

// findingsHeld is how many findings a run keeps for lint.
const findingsHeld = 1000

// findingLog runs the findings detector over every frame of a run: with
// --findings it prints each finding on stderr as it is found, the first
// findingsShown of each code, and counts the rest for Flush; it keeps the
// first findingsHeld for lint. It is safe for concurrent use.
type findingLog struct {
	mu     sync.Mutex
	d      *findings.Detector
	out    *lineWriter // nil: print nothing
	shown  map[string]int
	hidden []string // codes held back, in the order the first was
	held   []findings.Finding
}

// newFindingLog returns a log that prints on out, or prints nothing when
// out is nil.
func newFindingLog(out *lineWriter) *findingLog {
	return &findingLog{d: findings.NewDetector(), out: out, shown: map[string]int{}}
}

// ReleasesUnheld is true: the log reads a frame while Append runs and
// keeps none of its bytes.
func (*findingLog) ReleasesUnheld() bool { return true }

// Append reads one frame.
func (l *findingLog) Append(f *capture.Frame) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, x := range l.d.Note(f) {
		if len(l.held) < findingsHeld {
			l.held = append(l.held, x)
		}
		if l.out == nil {
			continue
		}
		n := l.shown[x.Code]
		l.shown[x.Code] = n + 1
		switch {
		case n < findingsShown:
			l.out.Println(x.String())
		case n == findingsShown:
			l.hidden = append(l.hidden, x.Code)
		}
	}
	return 0
}

// Found returns the findings kept so far; none when the run kept no
// log (l nil).
func (l *findingLog) Found() []findings.Finding {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]findings.Finding(nil), l.held...)
}

// Flush prints how many findings of each code were not shown.
func (l *findingLog) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.out == nil {
		return
	}
	for _, code := range l.hidden {
		l.out.Println(fmt.Sprintf("finding: %d more %s findings were not shown", l.shown[code]-findingsShown, code))
	}
	l.hidden = nil
}
