package hexview

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// ink is a style resolved into the escape sequences that open and close it,
// so that a run of cells costs two string writes instead of a lipgloss
// rendering. A style whose rendering does not simply wrap its text (one
// with a transform, say) keeps being rendered run by run.
type ink struct {
	pre, post string
	wraps     bool // pre + text + post is what the style renders text to
	resolved  bool
}

// inkMarker stands for the text while a style is resolved.
const inkMarker = "\x00"

// newInk resolves a style.
func newInk(s lipgloss.Style) ink {
	if s.GetTransform() != nil { // it may leave the marker alone and change the text
		return ink{resolved: true}
	}
	r := s.Render(inkMarker)
	i := strings.Index(r, inkMarker)
	if i < 0 || strings.Count(r, inkMarker) != 1 {
		return ink{resolved: true}
	}
	return ink{pre: r[:i], post: r[i+len(inkMarker):], wraps: true, resolved: true}
}
