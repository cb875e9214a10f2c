package media

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
)

// Item is one image, audio clip or blob a result carries: a content
// block's data or a resource's blob, still in base64.
type Item struct {
	Kind     string // "image", "audio" or "blob"
	MimeType string
	URI      string // a resource's, "" for a content block
	Base64   string
}

// block is what Items reads of a content block or resource contents.
type block struct {
	Type     string          `json:"type"`
	Data     *string         `json:"data"`
	Blob     *string         `json:"blob"`
	MimeType string          `json:"mimeType"`
	URI      string          `json:"uri"`
	Resource json.RawMessage `json:"resource"`
}

// Items lists the images, audio and blobs of a result in the order it
// holds them: tools/call content, resources/read contents, prompts/get
// messages' content, embedded resources' blobs. A result of another shape
// has none.
func Items(result json.RawMessage) []Item {
	if !mayHoldItems(result) {
		return nil
	}
	return items(result)
}

// items is Items for a result that may hold some.
func items(result json.RawMessage) []Item {
	var r struct {
		Content  []json.RawMessage `json:"content"`
		Contents []json.RawMessage `json:"contents"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	var out []Item
	for _, c := range append(r.Content, r.Contents...) {
		out = appendItem(out, c)
	}
	for _, m := range r.Messages {
		out = appendItem(out, m.Content)
	}
	return out
}

// mayHoldItems reports whether result may hold an item: "image" or
// "audio" as a string, a member named "blob" in any case (as
// encoding/json matches names), or \u escapes, which could spell any of
// them. A result with none, as most large results of text, is not
// decoded.
func mayHoldItems(result []byte) bool {
	if bytes.Contains(result, []byte(`\u`)) || bytes.Contains(result, []byte(`"image"`)) || bytes.Contains(result, []byte(`"audio"`)) {
		return true
	}
	for rest := result; ; {
		i := bytes.IndexByte(rest, '"')
		if i < 0 || i+5 >= len(rest) {
			return false
		}
		if n := rest[i+1 : i+6]; n[0]|0x20 == 'b' && n[1]|0x20 == 'l' && n[2]|0x20 == 'o' && n[3]|0x20 == 'b' && n[4] == '"' {
			return true
		}
		rest = rest[i+1:]
	}
}

// ItemOf reads one content block or resource contents; ok is false when
// it holds no image, audio or blob.
func ItemOf(raw json.RawMessage) (Item, bool) {
	out := appendItem(nil, raw)
	if len(out) == 0 {
		return Item{}, false
	}
	return out[0], true
}

// appendItem appends what raw holds, if anything.
func appendItem(out []Item, raw json.RawMessage) []Item {
	var b block
	if json.Unmarshal(raw, &b) != nil {
		return out
	}
	switch {
	case b.Type == "resource" && len(b.Resource) > 0:
		return appendItem(out, b.Resource)
	case (b.Type == "image" || b.Type == "audio") && b.Data != nil:
		return append(out, Item{Kind: b.Type, MimeType: b.MimeType, URI: b.URI, Base64: *b.Data})
	case b.Blob != nil:
		kind := "blob"
		if t, _, _ := strings.Cut(b.MimeType, "/"); t == "image" || t == "audio" {
			kind = t
		}
		return append(out, Item{Kind: kind, MimeType: b.MimeType, URI: b.URI, Base64: *b.Blob})
	}
	return out
}

// Bytes decodes the item's base64.
func (it Item) Bytes() ([]byte, error) { return DecodeBase64(it.Base64) }

// DecodeBase64 decodes the base64 of an image, audio or blob: standard
// base64, padded or not.
func DecodeBase64(data string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil && !strings.Contains(data, "=") {
		if raw, rawErr := base64.RawStdEncoding.DecodeString(data); rawErr == nil {
			return raw, nil
		}
	}
	return b, err
}

// FileName is the name an item is saved under by default: the last
// segment of its URI when it has one, else "content-N" (n counts from 1)
// with the extension its MIME type names. Never a path: no separator, no
// leading dot.
func (it Item) FileName(n int) string {
	if u, err := url.Parse(it.URI); err == nil && it.URI != "" {
		p := u.Path
		if p == "" {
			p = u.Opaque
		}
		if base := safeName(path.Base(p)); base != "" {
			return base
		}
	}
	return fmt.Sprintf("content-%d%s", n, extension(it.MimeType))
}

// maxName bounds a file name taken from a URI, in bytes.
const maxName = 200

// slashLike are characters drawn like a path separator: a name holding
// one would read as a path it is not.
const slashLike = "\u2044\u2215\u29f8\u29f9\uff0f\uff3c"

// safeName is name with separators, controls, format characters (bidi
// overrides) and leading dots and spaces taken out, characters drawn
// like a separator made "_", at most maxName bytes; "" for a name of
// nothing else or "~".
func safeName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError || r == '/' || r == '\\' || r == ':':
			return -1
		case strings.ContainsRune(slashLike, r):
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeftFunc(name, func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
	name = strings.TrimRightFunc(name, unicode.IsSpace)
	for len(name) > maxName {
		_, n := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-n]
	}
	if name == "~" {
		return ""
	}
	return name
}

// extension is the usual extension of a MIME type, ".bin" when it has
// none known.
func extension(mimeType string) string {
	known := map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
		"image/svg+xml": ".svg", "audio/wav": ".wav", "audio/x-wav": ".wav", "audio/wave": ".wav", "audio/mpeg": ".mp3",
		"audio/ogg": ".ogg", "audio/flac": ".flac", "application/pdf": ".pdf", "application/json": ".json", "text/plain": ".txt"}
	t, _, _ := mime.ParseMediaType(mimeType)
	if ext, ok := known[t]; ok {
		return ext
	}
	if exts, _ := mime.ExtensionsByType(t); len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}

// Describe says what data holds in a few words: "20×20 png" for an
// image ("" when its header does not read: Preview says why), a WAV
// clip's format and duration or why its header does not read, "duration
// unknown" for other audio. It reads headers only.
func Describe(kind, mimeType string, data []byte) string {
	switch kind {
	case "image":
		info, err := ReadImageInfo(data)
		if err != nil {
			return "" // Preview says why
		}
		return fmt.Sprintf("%d×%d", info.Width, info.Height)
	case "audio":
		if !isWAV(mimeType, data) {
			return "duration unknown"
		}
		w, err := ParseWAV(data)
		if err != nil {
			return err.Error()
		}
		return w.String()
	}
	return humanize.IBytes(uint64(len(data)))
}

// isWAV says whether audio of this type and bytes is read as WAV.
func isWAV(mimeType string, data []byte) bool {
	t, _, _ := mime.ParseMediaType(mimeType)
	return t == "audio/wav" || t == "audio/x-wav" || t == "audio/wave" || t == "audio/vnd.wave" ||
		len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE"
}
