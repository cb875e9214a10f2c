package look

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Size of the preview of an image or audio clip in a view of content.
const (
	PreviewCols = media.PreviewCols
	PreviewRows = media.PreviewRows
)

// Decoding is the line that stands for a picture being decoded.
const Decoding = "decoding…"

// MediaPreview is what follows the one-line head of an image, audio clip
// or blob content item (ItemPreview), each line after a newline; "" for
// an item that holds none.
func MediaPreview(raw json.RawMessage, cols, rows int, st *Styles) string {
	it, ok := media.ItemOf(raw)
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, l := range ItemPreview(it, cols, rows, st) {
		b.WriteString("\n" + l)
	}
	return b.String()
}

// ItemPreview draws an image or audio clip in at most cols×rows cells: a
// line of what its header says (an image's size, a WAV clip's format and
// duration, "duration unknown") and the picture or the clip's level
// strip, or a line saying why there is no picture. A blob has none. The
// picture is in half blocks, or the cells of st.Pictures where the
// terminal shows pictures of its own (none with media.Off). A large image
// is decoded off the caller's goroutine (media.PreviewLater): Decoding
// stands for it until it is drawn.
func ItemPreview(it media.Item, cols, rows int, st *Styles) []string {
	if it.Kind == "blob" {
		return nil
	}
	var out []string
	if data, err := it.Bytes(); err == nil {
		if d := media.Describe(it.Kind, it.MimeType, data); d != "" {
			out = append(out, st.Ink.Muted.Paint(termtext.Line(d)))
		}
	}
	proto := st.Pictures.Protocol()
	if proto == media.Kitty && (st.Plain || !st.Pictures.Draws()) {
		proto = media.Off // its cells name the picture by a colour the terminal would not get
	}
	if proto == media.Off && it.Kind == "image" {
		return out
	}
	var pic *media.Picture
	lines, ok := []string(nil), false
	if proto == media.Blocks {
		lines, ok = media.PreviewLater(it, cols, rows)
	} else {
		pic, lines, ok = media.PictureLater(it, cols, rows)
	}
	if pic != nil {
		return append(out, st.Pictures.Cells(pic)...)
	}
	if !ok {
		return append(out, st.Ink.Muted.Paint(Decoding))
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "no preview: "):
			l = st.Ink.Warn.Paint(termtext.Line(l))
		case it.Kind == "audio":
			l = st.Ink.Good.Paint(l)
		}
		out = append(out, l)
	}
	return out
}
