package ui

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/ui/look"
)

// The detail of a result holding a large image lays out at once, the
// image as decoding…, and draws it when it is decoded.
func TestDetailDecodesLargeImageLater(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	pic := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 1203, 1003))
	res := map[string]any{"content": []any{map[string]any{"type": "image", "mimeType": "image/png", "data": pic}}}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", map[string]any{"name": "media"})))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 1, res)))
	drawn := media.Changed()
	m := newTestModel(t, st, 120, 50)
	press(m, "end")
	press(m, "enter")
	m.detail.prepare()
	preview := func() string { return strings.Join(m.detail.content.rows(0, 30), "\n") }
	if !strings.Contains(preview(), look.Decoding) {
		t.Fatalf("no %q while the image decodes:\n%s", look.Decoding, preview())
	}
	select {
	case <-drawn:
	case <-time.After(guard.Hang):
		t.Fatal("the image is never drawn")
	}
	m.detail.prepare()
	if got := preview(); strings.Contains(got, look.Decoding) || !strings.Contains(got, "▀") {
		t.Errorf("still no picture:\n%s", got)
	}
}
