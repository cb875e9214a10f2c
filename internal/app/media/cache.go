package media

import (
	"crypto/sha256"
	"slices"
	"sync"
)

// previewKey is what a preview is drawn from.
type previewKey struct {
	sum        [sha256.Size]byte // of the base64
	kind, mime string
	cols, rows int
	pic        bool // a Picture, not half blocks
}

// drawn is what a preview is drawn as: its lines, or a Picture for a
// terminal's own protocol (lines then say why there is none).
type drawn struct {
	lines []string
	pic   *Picture
}

// maxCached is how many previews the cache keeps.
const maxCached = 32

// previewCache keeps the latest previews drawn, so that a view laid out
// again (a resize, a frame selected again) does not decode its images
// again.
type previewCache struct {
	mu    sync.Mutex
	lines map[previewKey]drawn
	order []previewKey // oldest first
}

// previews is the process's cache.
var previews previewCache

// get returns a cached preview.
func (c *previewCache) get(k previewKey) (drawn, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.lines[k]
	d.lines = slices.Clone(d.lines)
	return d, ok
}

// put keeps a preview, forgetting the oldest past maxCached.
func (c *previewCache) put(k previewKey, d drawn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lines == nil {
		c.lines = map[previewKey]drawn{}
	}
	if _, ok := c.lines[k]; ok {
		return
	}
	if len(c.order) == maxCached {
		delete(c.lines, c.order[0])
		c.order = c.order[1:]
	}
	c.lines[k] = d
	c.order = append(c.order, k)
}
