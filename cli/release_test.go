package cli

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// The headless sinks keep nothing of a frame, so a long execution stream's
// chunk copies are reused behind them as behind the capture Store.
func TestHeadlessSinksReleaseUnheldFrames(t *testing.T) {
	sink := capture.Tee(newStreamTrace(nil), &decodeWarnings{}, &streamWarnings{}, &datagramFlood{})
	if !capture.ReleasesUnheld(sink) {
		t.Fatal("the headless sinks do not promise to release unheld frames")
	}
}
