package question

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/ui/look"
)

// The request is drawn once for a width, not on every frame: drawing it
// decodes the server's images. A new width draws it again.
func TestSamplingRequestDrawnOnceAWidth(t *testing.T) {
	st := look.NewStyles(true)
	v, err := newSamplingView(json.RawMessage(screentest.SamplingParams), &st)
	if err != nil {
		t.Fatal(err)
	}
	first := v.requestLines(60)
	v.p.SystemPrompt = "changed since drawn"
	if again := v.requestLines(60); &again[0] != &first[0] {
		t.Error("the request was drawn again at the same width")
	}
	if narrower := v.requestLines(50); !strings.Contains(strings.Join(narrower, "\n"), "changed since drawn") {
		t.Error("a new width kept the old drawing")
	}
}
