package media

import (
	"encoding/base64"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
)

// largeImages counts the images the tests draw later, each of its own size
// so that none is drawn before.
var largeImages atomic.Int32

// A large image not drawn yet is put off, then drawn on another
// goroutine; a small one is drawn at once.
func TestPreviewLater(t *testing.T) {
	small := Item{Kind: "image", Base64: base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 8, 6))}
	if lines, ok := PreviewLater(small, 40, 12); !ok || len(lines) != 3 {
		t.Fatalf("small image: %d lines, ok %v", len(lines), ok)
	}
	large := Item{Kind: "image", Base64: base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 1100, 1000+int(largeImages.Add(1))))}
	drawn := Changed()
	if _, ok := PreviewLater(large, 40, 12); ok {
		t.Fatal("a megapixel image was drawn on the caller's goroutine")
	}
	deadline := time.After(guard.Hang)
	for {
		select {
		case <-drawn:
		case <-deadline:
			t.Fatal("never drawn")
		}
		drawn = Changed()
		if lines, ok := PreviewLater(large, 40, 12); ok {
			if len(lines) != 12 {
				t.Errorf("%d lines, want 12", len(lines))
			}
			return
		}
	}
}
