package prompts_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A prompt is the server's: its message, placeholder, options, their
// descriptions and its progress message reach the screen escaped.
func TestHostilePromptTextIsEscaped(t *testing.T) {
	const esc = `\u001b]0;PWNED\u0007\u001b[2J\u009b1m`
	for name, prompt := range map[string]string{
		"text":   `{"type":"text","message":"Name ` + esc + `","placeholder":"e.g. ` + esc + `"}`,
		"choice": `{"type":"choice","message":"Pick","choices":[{"value":"a","label":"A ` + esc + `","description":"d ` + esc + `"},{"value":"` + esc + `"}]}`,
	} {
		w, err := prompts.New(decodePrompt(t, prompt), testOptions())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w.SetSize(100, 20)
		assertEscaped(t, name, w.Render(100, 20))
	}
	var prog mcp.InteractionProgress
	if err := json.Unmarshal([]byte(`{"current":1,"total":2,"message":"step `+esc+`"}`), &prog); err != nil {
		t.Fatal(err)
	}
	p := prompts.NewProgress(prog, false)
	assertEscaped(t, "progress", p.Render(100, 3))
}

// assertEscaped fails when view holds a raw BEL, OSC, screen clear or C1
// control, or lacks the hostile text shown escaped.
func assertEscaped(t *testing.T, what, view string) {
	t.Helper()
	for _, raw := range []string{"\x07", "\x1b]", "\x1b[2J", "\u009b"} {
		if i := strings.Index(view, raw); i >= 0 {
			t.Errorf("%s: raw %q at byte %d: %q", what, raw, i, view[max(i-40, 0):min(i+40, len(view))])
		}
	}
	if !strings.Contains(view, `\x1b]0;PWNED\x07`) {
		t.Errorf("%s: the hostile text is not shown escaped:\n%s", what, view)
	}
}
