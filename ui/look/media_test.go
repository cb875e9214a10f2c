package look

import (
	"encoding/base64"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
)

func TestGoldenOutcomeMedia(t *testing.T) {
	st := NewStyles(true)
	pic := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 8, 6))
	clip := base64.StdEncoding.EncodeToString(mediatest.WAV(8000, 4000, 0.9, -1))
	lying := base64.StdEncoding.EncodeToString(mediatest.LyingPNG(100000, 100000))
	res := `{"content":[{"type":"text","text":"here"},
		{"type":"image","mimeType":"image/png","data":"` + pic + `"},
		{"type":"audio","mimeType":"audio/wav","data":"` + clip + `"},
		{"type":"audio","mimeType":"audio/mpeg","data":"AAAA"},
		{"type":"image","mimeType":"image/png","data":"` + lying + `"},
		{"type":"image","mimeType":"image/png","data":"` + pic[:len(pic)-5] + `"}]}`
	o := NewOutcome("tools/call", []byte(res), nil, 0, &st)
	body, _, _ := strings.Cut(o.Body, "── result JSON ──")
	goldentest.CheckPlain(t, "outcome_media", body)
}

// A result of ten images draws the first eight of them, at most as wide
// as the view.
func TestOutcomePreviewsBounded(t *testing.T) {
	st := NewStyles(true)
	pic := `{"type":"image","mimeType":"image/png","data":"` + base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 80, 60)) + `"}`
	res := `{"content":[` + strings.TrimSuffix(strings.Repeat(pic+",", 10), ",") + `]}`
	o := NewOutcome("tools/call", []byte(res), nil, 0, &st)
	if n := strings.Count(ansi.Strip(o.Body), "80×60"); n != MaxPreviews {
		t.Errorf("%d previews of 10 images, want %d", n, MaxPreviews)
	}
	for _, w := range []int{25, 40} {
		summary, _, _ := strings.Cut(o.Render(w, 10000), "── result JSON ──")
		for _, l := range strings.Split(summary, "\n") {
			if ansi.StringWidth(l) > w {
				t.Fatalf("width %d: a line of %d cells: %q", w, ansi.StringWidth(l), l)
			}
		}
		if rows := strings.Count(summary, "▀"); w == 25 && rows > MaxPreviews*25*10 {
			t.Errorf("width 25: %d half blocks", rows)
		}
	}
}

// An outcome counts its media items once, when built.
func TestOutcomeCountsMedia(t *testing.T) {
	st := NewStyles(true)
	res := `{"content":[{"type":"text","text":"x"},{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"audio","mimeType":"audio/wav","data":"AAAA"}]}`
	if o := NewOutcome("tools/call", []byte(res), nil, 0, &st); o.Media != 2 {
		t.Errorf("%d media items of 2", o.Media)
	}
}

// largeImages counts the images the tests decode in the background.
var largeImages atomic.Int32

// A large image is decoded off the goroutine that builds the outcome:
// the outcome is built with it as Decoding, then, once it is drawn,
// shows the picture.
func TestOutcomeDecodesLargeImageLater(t *testing.T) {
	st := NewStyles(true)
	drawn := media.Changed()
	pic := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 1201, 1001+int(largeImages.Add(1))))
	o := NewOutcome("tools/call", []byte(`{"content":[{"type":"image","mimeType":"image/png","data":"`+pic+`"}]}`), nil, 0, &st)
	if !strings.Contains(o.Body, Decoding) || strings.Contains(o.Body, "▀") {
		t.Fatalf("no %q line while the picture decodes:\n%s", Decoding, o.Body)
	}
	deadline := time.After(guard.Hang)
	for {
		select {
		case <-drawn:
		case <-deadline:
			t.Fatal("the picture is never drawn")
		}
		drawn = media.Changed() // another picture drawn meanwhile may have been the one
		if got := o.Render(80, 1000); !strings.Contains(got, Decoding) && strings.Contains(got, "▀") {
			return
		}
	}
}
