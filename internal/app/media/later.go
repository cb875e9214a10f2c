package media

import (
	"encoding/base64"
	"sync"
)

// Bounds past which PreviewLater draws an image off the caller's
// goroutine: its base64, or the pixels its header claims.
const (
	laterBase64 = 256 << 10
	laterPixels = 1 << 20
)

// maxWaiting bounds the previews waiting to be drawn; past it the oldest
// is dropped (a view that still wants it asks again).
const maxWaiting = 16

// later draws the previews PreviewLater was asked for, one at a time, on
// a goroutine of its own while any wait.
var later struct {
	mu      sync.Mutex
	waiting []laterJob
	running bool
	gen     uint64
	changed chan struct{}
}

// laterJob is a preview to draw.
type laterJob struct {
	key previewKey
	it  Item
}

// PreviewLater is Preview for a view that must not wait: an image that
// may take long to decode (over 256 KiB of base64, or over a megapixel
// by its header and within Decode's bounds) not yet drawn is drawn on another goroutine, and ok is
// false meanwhile; Changed says when it is ready. Anything else is drawn
// at once.
func PreviewLater(it Item, cols, rows int) (lines []string, ok bool) {
	if cols <= 0 || rows <= 0 {
		return nil, true
	}
	d, ok := drawLaterOf(keyOf(it, cols, rows, false), it)
	return d.lines, ok
}

// PictureLater is PreviewLater for a terminal that shows pictures of its
// own: an image as a Picture of at most cols×rows cells, or the line
// saying why there is none (an image that does not decode, or an item
// that is no image: its preview). ok is false while a costly image is
// decoded on another goroutine.
func PictureLater(it Item, cols, rows int) (pic *Picture, lines []string, ok bool) {
	if cols <= 0 || rows <= 0 {
		return nil, nil, true
	}
	if it.Kind != "image" {
		lines, ok := PreviewLater(it, cols, rows)
		return nil, lines, ok
	}
	d, ok := drawLaterOf(keyOf(it, cols, rows, true), it)
	return d.pic, d.lines, ok
}

// drawLaterOf is the preview of key, drawn at once when cheap and on
// drawLater's goroutine when costly (ok false until it is).
func drawLaterOf(key previewKey, it Item) (drawn, bool) {
	if d, ok := previews.get(key); ok {
		return d, true
	}
	if !costly(it) {
		return cached(key, it), true
	}
	later.mu.Lock()
	defer later.mu.Unlock()
	for _, j := range later.waiting {
		if j.key == key {
			return drawn{}, false
		}
	}
	if len(later.waiting) == maxWaiting {
		later.waiting = later.waiting[1:]
	}
	later.waiting = append(later.waiting, laterJob{key: key, it: it})
	if !later.running {
		later.running = true
		go drawLater()
	}
	return drawn{}, false
}

// costly says whether an image may take long to decode.
func costly(it Item) bool {
	if it.Kind != "image" {
		return false
	}
	if len(it.Base64) > laterBase64 {
		return true
	}
	head := it.Base64[:len(it.Base64)/4*4]
	data, err := base64.StdEncoding.DecodeString(head)
	if err != nil {
		return false // Preview says why, at once
	}
	info, err := ReadImageInfo(data)
	return err == nil && info.check(len(data)) == nil && int64(info.Width)*int64(info.Height) > laterPixels
}

// drawLater draws the waiting previews until none wait.
func drawLater() {
	for {
		later.mu.Lock()
		if len(later.waiting) == 0 {
			later.running = false
			later.mu.Unlock()
			return
		}
		j := later.waiting[0]
		later.waiting = later.waiting[1:]
		later.mu.Unlock()

		previews.put(j.key, draw(j.it, j.key))

		later.mu.Lock()
		later.gen++
		if later.changed != nil {
			close(later.changed)
			later.changed = nil
		}
		later.mu.Unlock()
	}
}

// Changed is closed when a preview PreviewLater put off is drawn; ask
// again after.
func Changed() <-chan struct{} {
	later.mu.Lock()
	defer later.mu.Unlock()
	if later.changed == nil {
		later.changed = make(chan struct{})
	}
	return later.changed
}

// Drawn counts the previews PreviewLater put off that have been drawn: a
// view that showed one as waiting lays itself out again when it grows.
func Drawn() uint64 {
	later.mu.Lock()
	defer later.mu.Unlock()
	return later.gen
}
