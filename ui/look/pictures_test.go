package look

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
	"github.com/mcpscope/mcpscope/ui/pictures"
)

// An outcome's image is drawn as kitty placeholder cells under its size
// line; a terminal that shows no colour (whose cells could not name the
// picture) gets the size line alone.
func TestOutcomeKittyCells(t *testing.T) {
	pic := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 8, 6))
	res := []byte(`{"content":[{"type":"image","mimeType":"image/png","data":"` + pic + `"}]}`)
	st := NewStyles(true)
	st.Pictures = pictures.New(media.Kitty)
	o := NewOutcome("tools/call", res, nil, 0, &st)
	o.SetSize(80, 20)
	if n := strings.Count(o.Body, string(kitty.Placeholder)); n != 8*3 {
		t.Fatalf("%d placeholder cells, want 8×3:\n%s", n, o.Body)
	}
	if !strings.Contains(o.Body, "\x1b[38;5;1m"+string(kitty.Placeholder)+string(kitty.Diacritic(0))+string(kitty.Diacritic(0))) {
		t.Fatalf("the first cell is not image 1's row 0, column 0:\n%q", o.Body)
	}
	plain := NewPlainStyles(true)
	plain.Pictures = st.Pictures
	o = NewOutcome("tools/call", res, nil, 0, &plain)
	if strings.ContainsAny(o.Body, string(kitty.Placeholder)+"▀") || !strings.Contains(o.Body, "8×6") {
		t.Fatalf("without colour:\n%s", o.Body)
	}
}
