package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// noisePNG is a w×h PNG of random pixels: it does not compress.
func noisePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.Uint32())
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imagesResult is a tools/call result of n copies of the PNG data.
func imagesResult(t *testing.T, data []byte, n int) []byte {
	t.Helper()
	var content []any
	for range n {
		content = append(content, map[string]string{"type": "image", "mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(data)})
	}
	raw, err := json.Marshal(map[string]any{"content": content})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// profiledStandIn is a picture terminal that shows the colours of profile.
type profiledStandIn struct {
	pictureStandIn
	profile colorprofile.Profile
}

// ColorProfile says which colours profiledStandIn shows.
func (p *profiledStandIn) ColorProfile() colorprofile.Profile { return p.profile }

// picturesAt draws raw's pictures for a terminal out, 100 cells wide.
func picturesAt(ctx context.Context, out io.Writer, raw []byte) string {
	r := &run{io: streams{out: out, diag: &lineWriter{w: io.Discard}}}
	return r.pictures(ctx, raw, 100)
}

// A 1000×1000 picture sent to Kitty or iTerm is scaled to the 40×12
// cells it is shown in first: far fewer bytes than the server's own.
func TestPicturesScaledToCells(t *testing.T) {
	t.Parallel()
	data := noisePNG(t, 1000, 1000)
	raw := imagesResult(t, data, 2)
	for _, p := range []string{"kitty", "iterm"} {
		got := picturesAt(context.Background(), &pictureStandIn{protocol: p}, raw)
		if strings.Count(got, "\n") != 2 || len(got) > len(data)/2 {
			t.Errorf("%s: %d pictures in %d bytes for two of %d bytes", p, strings.Count(got, "\n"), len(got), len(data))
		}
	}
}

// Once the run's time is up no picture is drawn; half blocks at a
// terminal of no colours are no picture at all.
func TestPicturesStopAtDeadlineAndNoColour(t *testing.T) {
	t.Parallel()
	raw := imagesResult(t, noisePNG(t, 8, 8), 3)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if got := picturesAt(ended, &pictureStandIn{protocol: "kitty"}, raw); got != "" {
		t.Errorf("after the deadline: %q", got)
	}
	for _, profile := range []colorprofile.Profile{colorprofile.Ascii, colorprofile.NoTTY} {
		if got := picturesAt(context.Background(), &profiledStandIn{pictureStandIn{protocol: "blocks"}, profile}, raw); got != "" {
			t.Errorf("%v: %q", profile, got)
		}
	}
	if got := picturesAt(context.Background(), &profiledStandIn{pictureStandIn{protocol: "blocks"}, colorprofile.ANSI}, raw); strings.Count(got, "\n") != 12 {
		t.Errorf("ANSI: %d rows, want 3 pictures of 4", strings.Count(got, "\n"))
	}
}
