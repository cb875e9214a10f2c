package resulttext

import (
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/mcpscope/mcpscope/internal/app/media"
)

// mediaLine renders an image, audio clip or blob in one line: its kind,
// MIME type, an image's size in pixels or a WAV clip's duration when its
// header reads, and its decoded size (or why the base64 does not decode):
// "[image image/png 20×20 3.9 KiB]".
func mediaLine(kind, mimeType string, data *string, words ...string) string {
	if data == nil {
		return bracket(append(append([]string{kind}, words...), mimeType, "no data")...)
	}
	b, err := Decode(*data)
	if err != nil {
		return bracket(append(append([]string{kind}, words...), mimeType, "invalid base64: "+err.Error())...)
	}
	return bracket(append(append([]string{kind}, words...), mimeType, mediaWords(kind, mimeType, b), humanize.IBytes(uint64(len(b))))...)
}

// mediaWords is what an image's or a WAV clip's header says in a word:
// "20×20", "0.50 s"; "" when there is no header to read.
func mediaWords(kind, mimeType string, b []byte) string {
	if kind == "resource" {
		kind, _, _ = strings.Cut(mimeType, "/")
	}
	switch kind {
	case "image":
		if info, err := media.ReadImageInfo(b); err == nil {
			return fmt.Sprintf("%d×%d", info.Width, info.Height)
		}
	case "audio":
		if w, err := media.ParseWAV(b); err == nil && w.Timed() {
			return fmt.Sprintf("%.2f s", w.Duration().Seconds())
		}
	}
	return ""
}
