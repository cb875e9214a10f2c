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
	return cached(keyOf(it, cols, rows, false), it).lines
}

// cached is the preview of key, drawn when the cache has none.
func cached(key previewKey, it Item) drawn {
	if d, ok := previews.get(key); ok {
		return d
	}
	d := draw(it, key)
	previews.put(key, d)
	return d
}

// keyOf is the cache's key of a preview: a Picture when pic is set.
func keyOf(it Item, cols, rows int, pic bool) previewKey {
	return previewKey{sum: sha256.Sum256([]byte(it.Base64)), kind: it.Kind, mime: it.MimeType, cols: cols, rows: rows, pic: pic}
}

// draw is Preview (or PictureLater) without the cache.
func draw(it Item, key previewKey) drawn {
	cols, rows := key.cols, key.rows
	data, err := it.Bytes()
	if err != nil {
		return drawn{lines: []string{"no preview: invalid base64: " + err.Error()}}
	}
	switch it.Kind {
	case "image":
		img, _, err := Decode(data)
		if err != nil {
			return drawn{lines: []string{"no preview: " + err.Error()}}
		}
		if key.pic {
			return drawn{pic: newPicture(img, key.sum, cols, rows)}
		}
		return drawn{lines: HalfBlocks(img, cols, rows)}
	case "audio":
		if !isWAV(it.MimeType, data) {
			return drawn{}
		}
		w, err := ParseWAV(data)
		if err != nil {
			return drawn{} // Describe says why
		}
		if s := Strip(w, cols); s != "" {
			return drawn{lines: []string{s}}
		}
	}
	return drawn{}
}
