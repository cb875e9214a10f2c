package wizard

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A wizard shows the prompt's message, its options and the server's
// interaction message escaped.
func TestHostileWizardPromptIsEscaped(t *testing.T) {
	m, _ := newModel(t, 120, 40)
	hostileJSON, err := json.Marshal(screentest.Hostile)
	if err != nil {
		t.Fatal(err)
	}
	w := New(m.host, "tool "+screentest.Hostile)
	w.clock = func() time.Time { return t0 }
	w.message = "continue: " + screentest.Hostile
	w.showPrompt(&mcp.InteractionPrompt{Type: mcp.PromptChoice, Message: "Pick " + screentest.Hostile, Choices: []mcp.PromptChoiceItem{
		{Value: json.RawMessage(`"a"`), Label: "A " + screentest.Hostile, Description: "about " + screentest.Hostile},
		{Value: hostileJSON},
	}})
	m.overlay = w
	screentest.AssertSafeView(t, "wizard choice", m.View().Content)
	w.showPrompt(&mcp.InteractionPrompt{Type: mcp.PromptText, Message: "Name " + screentest.Hostile, Placeholder: "e.g. " + screentest.Hostile})
	screentest.AssertSafeView(t, "wizard text", m.View().Content)
}
