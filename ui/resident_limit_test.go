package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// The soft memory limit a TUI sets with the default store is the store's
// bound and the index's steady share, about 345 MiB (docs/tui.md): the
// room kept for results waiting for a verdict and for compiled
// outputSchemas, which come and go, does not raise the level a flood
// settles at.
func TestResidentLimitLeavesOutWhatComesAndGoes(t *testing.T) {
	st := capture.NewStore(capture.DefaultConfig())
	limit := ResidentLimit(st)
	most := st.Config().MemoryBound() + indexMemoryBound
	if comesAndGoes := int64(maxVerdictBytes + maxToolSchemaBytes*compiledSchemaRatio); most-limit != comesAndGoes {
		t.Errorf("the limit is %d MiB under the most the TUI holds (%d MiB), want the %d MiB that come and go", (most-limit)>>20, most>>20, comesAndGoes>>20)
	}
	if limit > 350<<20 {
		t.Errorf("the soft memory limit with the default store is %d MiB, over the documented 345 MiB", limit>>20)
	}
	t.Logf("limit %d MiB; the most the TUI holds %d MiB", limit>>20, most>>20)
}
