package look

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Size of the preview of an image or audio clip in a view of content.
const (
	PreviewCols = 40
	PreviewRows = 12
)

// MediaPreview is what follows the one-line head of an image, audio clip
// or blob content item: a line of what its header says (an image's size,
// a WAV clip's format and duration, "duration unknown") and the picture
// in half blocks or the clip's level strip, at most cols×rows cells; ""
// for an item that holds none, each line after a newline.
func MediaPreview(raw json.RawMessage, cols, rows int, st *Styles) string {
	it, ok := media.ItemOf(raw)
	if !ok || it.Kind == "blob" {
		return ""
	}
	var b strings.Builder
	if data, err := it.Bytes(); err == nil {
		if d := media.Describe(it.Kind, it.MimeType, data); d != "" {
			b.WriteString("\n" + st.Ink.Muted.Paint(termtext.Line(d)))
		}
	}
	for _, l := range media.Preview(it, cols, rows) {
		if strings.HasPrefix(l, "no preview: ") {
			l = st.Ink.Warn.Paint(termtext.Line(l))
		} else if it.Kind == "audio" {
			l = st.Ink.Good.Paint(l)
		}
		b.WriteString("\n" + l)
	}
	return b.String()
}
