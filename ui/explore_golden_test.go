package ui

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// TestGoldenExploreScreen draws the whole screen with the explorer open,
// unconnected, over the fixture lists.
func TestGoldenExploreScreen(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 110, 14)
	x := explore.New(driver{m}, &m.interactive)
	m.openOverlay(x)
	for method, text := range screentest.ListFixture {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(text), &items); err != nil {
			t.Fatal(err)
		}
		m.Update(explore.Listed(x, method, items))
	}
	golden(t, "explore_screen", m.View().Content)
}
