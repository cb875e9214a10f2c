package media

import "crypto/sha256"

// The cells an image or audio clip is drawn in unless a view says
// otherwise: a 20×20 icon in half blocks is 20×10 of them.
const (
	PreviewCols = 40
	PreviewRows = 12
)

// Preview draws an item for a pane at most cols×rows cells: an image as
// half blocks, a PCM WAV clip as its level strip, cols glyphs wide. What
// cannot be drawn (too large, not an image, truncated base64, audio of
// another format) is one line saying why; a blob has none.
func Preview(it Item, cols, rows int) []string {
	if cols <= 0 || rows <= 0 {
		return nil
	}
	key := keyOf(it, cols, rows)
	if lines, ok := previews.get(key); ok {
		return lines
	}
	lines := draw(it, cols, rows)
	previews.put(key, lines)
	return lines
}

// keyOf is the cache's key of a preview.
func keyOf(it Item, cols, rows int) previewKey {
	return previewKey{sum: sha256.Sum256([]byte(it.Base64)), kind: it.Kind, mime: it.MimeType, cols: cols, rows: rows}
}

// draw is Preview without the cache.
func draw(it Item, cols, rows int) []string {
	data, err := it.Bytes()
	if err != nil {
		return []string{"no preview: invalid base64: " + err.Error()}
	}
	switch it.Kind {
	case "image":
		img, _, err := Decode(data)
		if err != nil {
			return []string{"no preview: " + err.Error()}
		}
		return HalfBlocks(img, cols, rows)
	case "audio":
		if !isWAV(it.MimeType, data) {
			return nil
		}
		w, err := ParseWAV(data)
		if err != nil {
			return nil // Describe says why
		}
		if s := Strip(w, cols); s != "" {
			return []string{s}
		}
	}
	return nil
}
