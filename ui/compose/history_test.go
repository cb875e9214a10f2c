package compose

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestComposeHistoryBounded(t *testing.T) {
	var h History
	for i := range 3 * maxComposeHistory {
		h.add(composeCall{method: "m", params: json.RawMessage(strings.Repeat("1", i%7+1))})
	}
	if len(h.calls) != maxComposeHistory {
		t.Errorf("history holds %d calls", len(h.calls))
	}
}
