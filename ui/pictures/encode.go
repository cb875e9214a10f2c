package pictures

import (
	"slices"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/media"
)

// Frame is the renderer's frame interval (60 frames a second), rounded
// up: an iTerm2 or sixel box is drawn once the view that placed it has
// been on screen for a frame, so that the renderer's frame of that view
// is written before the picture, not after it.
const Frame = 17 * time.Millisecond

// maxCache bounds the bytes of the iTerm2 and sixel encodings a Board
// keeps to draw a box again without encoding it again; the encodings of
// the boxes the last view placed are kept past it.
const maxCache = 16 << 20

// encKey is which encoding of a slot's picture: its rows from top, for
// cells of cellW×cellH pixels (0×0 for iTerm2, which the terminal
// scales).
type encKey struct{ top, rows, cellW, cellH int }

// encoding is a finished iTerm2 or sixel sequence of a slot's picture,
// "" when it failed to encode.
type encoding struct {
	s   *slot
	key encKey
	seq string
}

// job is one picture Encode encodes: a kitty transmission, or an overlay
// of key's rows.
type job struct {
	id  int
	s   *slot
	pic *media.Picture
	key encKey
	seq string
}

// Encode encodes what the next Flush is to send and does not have yet:
// kitty transmissions of pictures not sent, iTerm2 and sixel overlays of
// the boxes the last view placed. It is slow (a sixel of 400×240 noisy
// pixels takes a good part of a second): call it off the program's
// goroutine, between a wake and a Flush. The Board is not held while it
// encodes.
func (b *Board) Encode() {
	if b == nil {
		return
	}
	b.mu.Lock()
	jobs := b.jobs()
	proto := b.proto
	b.mu.Unlock()
	for i := range jobs {
		j := &jobs[i]
		var err error
		if proto == media.Kitty {
			j.seq, err = j.pic.KittyTransmit(j.id)
		} else {
			j.seq, err = j.pic.Overlay(proto, j.key.top, j.key.rows, j.key.cellW, j.key.cellH)
		}
		if err != nil {
			j.seq = ""
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.encodes += len(jobs)
	for _, j := range jobs {
		if b.slots[j.id] != j.s { // the id was given up meanwhile
			continue
		}
		if proto == media.Kitty {
			if j.seq == "" {
				j.s.sent, j.s.pic = true, nil
			}
			j.s.transmit = j.seq
			continue
		}
		if _, ok := b.cached(j.s, j.key); !ok {
			b.cache = append(b.cache, encoding{s: j.s, key: j.key, seq: j.seq})
			b.cacheBytes += len(j.seq)
		}
	}
	b.trimCache()
}

// Encodes is how many pictures the Board has encoded.
func (b *Board) Encodes() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.encodes
}

// jobs is what Encode is to encode. b.mu is held.
func (b *Board) jobs() []job {
	var jobs []job
	if b.proto == media.Kitty {
		for _, id := range b.order {
			if s := b.slots[id]; !s.sent && s.pic != nil && s.transmit == "" {
				jobs = append(jobs, job{id: id, s: s, pic: s.pic})
			}
		}
		return jobs
	}
	for _, p := range b.placed {
		s := b.slots[p.ID]
		if k := b.encKey(p); !slices.Contains(b.shown, p) && !slices.ContainsFunc(jobs, func(j job) bool { return j.s == s && j.key == k }) {
			if _, ok := b.cached(s, k); !ok {
				jobs = append(jobs, job{id: p.ID, s: s, pic: s.pic, key: k})
			}
		}
	}
	return jobs
}

// encKey is the encoding box p is drawn with. b.mu is held.
func (b *Board) encKey(p Box) encKey {
	if b.proto == media.Sixel {
		return encKey{p.Top, p.Rows, b.cellW, b.cellH}
	}
	return encKey{top: p.Top, rows: p.Rows}
}

// cached is s's encoding k, made the most recently used. b.mu is held.
func (b *Board) cached(s *slot, k encKey) (string, bool) {
	i := slices.IndexFunc(b.cache, func(e encoding) bool { return e.s == s && e.key == k })
	if i < 0 {
		return "", false
	}
	e := b.cache[i]
	b.cache = append(append(b.cache[:i:i], b.cache[i+1:]...), e)
	return e.seq, true
}

// trimCache drops the least recently used encodings past maxCache, but
// those of the boxes the last view placed, and those of ids given up.
// b.mu is held.
func (b *Board) trimCache() {
	inUse := func(e encoding) bool {
		return slices.ContainsFunc(b.placed, func(p Box) bool { return b.slots[p.ID] == e.s && b.encKey(p) == e.key })
	}
	kept := b.cache[:0]
	for _, e := range b.cache {
		if b.slots[e.s.id] != e.s || b.cacheBytes > maxCache && !inUse(e) {
			b.cacheBytes -= len(e.seq)
			continue
		}
		kept = append(kept, e)
	}
	clear(b.cache[len(kept):])
	b.cache = kept
}
