package look

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
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
