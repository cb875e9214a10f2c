package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A filter that matches no frame says so, naming the filter, not that
// there are no frames.
func TestFilterWithoutMatchSaysSo(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	st.Append(controlFrame(t, capture.Out, (&clock{}).next(), proto.EncJSON, request(t, 1, mcp.MethodToolsList, nil)))
	m := newTestModel(t, st, 100, 20)
	filterBy(m, "error")
	if rows := strings.Join(trafficRows(m), "\n"); !strings.Contains(rows, "no frame matches error") || strings.Contains(rows, "no frames yet") {
		t.Errorf("the traffic:\n%s", rows)
	}
}
