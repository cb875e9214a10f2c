// Package pictures shows images in a TUI in the terminal's own protocol.
// A view draws each picture as a box of cells (Board.Cells); for kitty the
// cells are Unicode placeholders the terminal fills with an image sent
// once by id, for iTerm2 and sixel the box is left blank and the picture
// is drawn over it at the cursor once the box is on screen (Board.Place,
// Board.Flush). Pictures are encoded off the program's goroutine
// (Board.Encode, between Board.Wake and Board.Flush). Only mcpscope's own
// encoding of pixels it decoded reaches the terminal, never a server's
// bytes.
package pictures

import (
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// Bounds of the pictures a Board keeps by id: kitty keeps a picture's
// pixels only until they are sent, iTerm2 and sixel keep them to draw
// the picture again (at most 384 KiB each: 40×12 cells of 10×20 pixels).
const (
	maxKitty   = 255
	maxOverlay = 32
)

// key is which picture an id shows: an image in a box of cells.
type key struct {
	sum        [32]byte
	cols, rows int
}

// slot is what a Board keeps of one id.
type slot struct {
	id       int
	key      key
	pic      *media.Picture // nil once sent to kitty
	transmit string         // kitty: the transmission Encode made, not sent yet
	sent     bool
}

// Board keeps the ids of the pictures a TUI shows, what the terminal has
// been sent and what it is still to be sent. A nil Board shows half
// blocks. Its methods may be called from any goroutine.
type Board struct {
	proto media.Protocol

	mu      sync.Mutex
	ids     map[key]int
	slots   map[int]*slot
	order   []int // ids, least recently drawn first
	gen     uint64
	deletes []int // kitty ids to forget
	wake    chan struct{}
	pending bool // something is to be sent: wake is closed

	fewColours   bool // the renderer brings colours down to 16 or none: kitty cells lose their id
	cellW, cellH int
	placed       []Box     // the boxes the last view showed whole
	placedAt     time.Time // when a view last placed other boxes than the view before
	shown        []Box     // the boxes the terminal was sent, as the last view has them
	stale        []Box     // boxes drawn that a later view no longer has: drawn again from its cells
	lines        []string  // the last view, boxes blank
	now          func() time.Time

	cache      []encoding // iTerm2 and sixel, least recently used first
	cacheBytes int
	encodes    int
}

// New returns a Board for protocol p.
func New(p media.Protocol) *Board {
	return &Board{proto: p, ids: map[key]int{}, slots: map[int]*slot{}, cellW: media.CellWidth, cellH: media.CellHeight, now: time.Now}
}

// Protocol is how pictures are shown: Blocks for a nil Board.
func (b *Board) Protocol() media.Protocol {
	if b == nil {
		return media.Blocks
	}
	return b.proto
}

// Shows says the terminal is sent pictures of its own (kitty, iTerm2,
// sixel).
func (b *Board) Shows() bool {
	p := b.Protocol()
	return p == media.Kitty || p == media.ITerm || p == media.Sixel
}

// SetColourProfile says what colours the renderer writes: kitty cells
// name their picture by a 256-colour index, lost below ANSI256, where
// Kitty draws no picture. A change changes Gen.
func (b *Board) SetColourProfile(p colorprofile.Profile) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if few := p < colorprofile.ANSI256; few != b.fewColours {
		b.fewColours = few
		b.gen++
	}
}

// Draws says whether Cells can be drawn: a terminal that shows pictures
// of its own, and for kitty one whose cells keep 256 colours.
func (b *Board) Draws() bool {
	if !b.Shows() {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.proto != media.Kitty || !b.fewColours
}

// Gen changes when an id drawn before may now show another picture: a
// view that kept cells drawn at an older Gen draws them again.
func (b *Board) Gen() uint64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.gen
}

// Cells draws pic as its box of cells, one string a row: kitty
// placeholders in the colour of its id, or for iTerm2 and sixel blank
// cells marked for Place. The picture is sent by a later Flush.
func (b *Board) Cells(pic *media.Picture) []string {
	b.mu.Lock()
	id := b.idOf(pic)
	b.mu.Unlock()
	rows := make([]string, pic.Rows)
	for r := range rows {
		var sb strings.Builder
		if b.proto == media.Kitty {
			sb.WriteString(ansi.Style{}.ForegroundColor(theme.KittyImageID(uint8(id))).String())
		}
		for c := range pic.Cols {
			sb.WriteRune(kitty.Placeholder)
			sb.WriteRune(kitty.Diacritic(r))
			sb.WriteRune(kitty.Diacritic(c))
			if b.proto != media.Kitty {
				sb.WriteRune(kitty.Diacritic(id))
			}
		}
		if b.proto == media.Kitty {
			sb.WriteString(ansi.ResetStyle)
		}
		rows[r] = sb.String()
	}
	return rows
}

// idOf is the id of pic, a new one when it has none (the least recently
// drawn id given up past the bound). b.mu is held.
func (b *Board) idOf(pic *media.Picture) int {
	k := key{sum: pic.Sum, cols: pic.Cols, rows: pic.Rows}
	if id, ok := b.ids[k]; ok {
		b.touch(id)
		return id
	}
	limit := maxKitty
	if b.proto != media.Kitty {
		limit = maxOverlay
	}
	id := len(b.order) + 1
	if len(b.order) == limit {
		id = b.order[0]
		b.order = b.order[1:]
		old := b.slots[id]
		delete(b.ids, old.key)
		if b.proto == media.Kitty && old.sent {
			b.deletes = append(b.deletes, id)
		}
		b.gen++
	}
	b.ids[k] = id
	b.slots[id] = &slot{id: id, key: k, pic: pic}
	b.order = append(b.order, id)
	if b.proto == media.Kitty {
		b.signal()
	}
	return id
}

// touch makes id the most recently drawn. b.mu is held.
func (b *Board) touch(id int) {
	for i, o := range b.order {
		if o == id {
			b.order = append(append(b.order[:i:i], b.order[i+1:]...), id)
			return
		}
	}
}

// signal says something is to be sent. b.mu is held.
func (b *Board) signal() {
	if b.pending {
		return
	}
	b.pending = true
	if b.wake != nil {
		close(b.wake)
		b.wake = nil
	}
}

// Wake is closed when something is to be sent: call Encode, then Flush
// (for iTerm2 and sixel once the view that asks for it is on screen).
func (b *Board) Wake() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	if b.wake == nil {
		b.wake = make(chan struct{})
	}
	return b.wake
}

// Flush is what the terminal is to be sent now, "" when nothing: kitty
// images not sent yet and ids given up; for iTerm2 and sixel, the boxes
// the last view placed that the terminal does not show yet, drawn over
// it, and the boxes it showed that the view no longer has, drawn again
// from the view's cells. It encodes nothing: it sends what Encode made,
// and what Encode has not made yet, or a box placed less than a Frame
// ago, it leaves for the next wake.
func (b *Board) Flush() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = false
	if b.proto == media.Kitty {
		return b.flushKitty()
	}
	return b.flushOverlay()
}

// flushKitty sends the pictures not sent yet and forgets the ids given
// up. b.mu is held.
func (b *Board) flushKitty() string {
	var out strings.Builder
	for _, id := range b.deletes {
		out.WriteString(media.KittyDelete(id))
	}
	b.deletes = nil
	for _, id := range b.order {
		s := b.slots[id]
		switch {
		case s.sent || s.pic == nil:
		case s.transmit == "":
			b.signal() // not encoded yet
		default:
			out.WriteString(s.transmit)
			s.sent, s.pic, s.transmit = true, nil, ""
		}
	}
	return out.String()
}

// Forget is what forgets every kitty image the terminal was sent, for
// when the TUI ends.
func (b *Board) Forget() string {
	if b == nil || b.proto != media.Kitty {
		return ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var out strings.Builder
	for _, id := range b.order {
		if b.slots[id].sent {
			out.WriteString(media.KittyDelete(id))
		}
	}
	return out.String()
}
