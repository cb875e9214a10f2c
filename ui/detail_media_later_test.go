package ui

import (
	"encoding/base64"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/ui/look"
)

// largeImages counts the images the tests decode in the background.
var largeImages atomic.Int32

// The detail of a result holding a large image lays out at once, the
// image as decoding… (unless it is decoded already), and draws it when
// it is decoded.
func TestDetailDecodesLargeImageLater(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	pic := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 1203, 1003+int(largeImages.Add(1))))
	res := map[string]any{"content": []any{map[string]any{"type": "image", "mimeType": "image/png", "data": pic}}}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", map[string]any{"name": "media"})))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 1, res)))
	drawn := media.Changed()
	m := newTestModel(t, st, 120, 50)
	press(m, "end")
	press(m, "enter")
	m.detail.prepare()
	preview := func() string { return strings.Join(m.detail.content.rows(0, 30), "\n") }
	if first := preview(); strings.Contains(first, "▀") {
		return // decoded already
	} else if !strings.Contains(first, look.Decoding) {
		t.Fatalf("no %q while the image decodes:\n%s", look.Decoding, preview())
	}
	deadline := time.After(guard.Hang)
	for {
		select {
		case <-drawn:
		case <-deadline:
			t.Fatal("the image is never drawn")
		}
		drawn = media.Changed() // another picture drawn meanwhile may have been the one
		m.detail.prepare()
		if got := preview(); !strings.Contains(got, look.Decoding) && strings.Contains(got, "▀") {
			return
		}
	}
}
