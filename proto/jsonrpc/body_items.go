package jsonrpc

import (
	"strconv"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
)

// Limits of BodyItems, so that a hostile body costs bounded memory: past
// MaxBodyItems the walk goes on without annotating (one ItemElided says how
// many were left out), and items nested deeper than MaxBodyItemDepth are
// walked over without being annotated.
const (
	MaxBodyItems     = 4096
	MaxBodyItemDepth = 64
)

// Bounds of the text an item carries.
const (
	maxItemPath  = 256 // bytes of a Path; a deeper path ends in "…"
	maxItemKey   = 40  // bytes of a key name kept in a Key or a path segment
	maxItemText  = 40  // bytes of a string's content shown in a Label
	maxItemBytes = 8   // bytes of a byte string shown in hex in a Label
)

// itemBytesGuess is about how many bytes of a body make one item, in the
// JSON and CBOR of MCP messages.
const itemBytesGuess = 8

// ItemRole says what a BodyItem stands for.
type ItemRole uint8

// Roles of body items.
const (
	ItemValue       ItemRole = iota // a data item or member: the outer item, a map or object value, an element, a tag's content
	ItemKey                         // the key of a CBOR map entry (a JSON member's name is part of its ItemValue)
	ItemUndecodable                 // the bytes from Offset on do not decode: cut short, malformed, or trailing the body's item
	ItemElided                      // items past MaxBodyItems, walked but not annotated
)

// BodyItem annotates one data item of a CBOR body or one member or element
// of a JSON body, so that a hex view can show what each byte means. Items
// come in the order of their first byte, a container before what it holds
// (pre-order), so the innermost item covering a byte is the last one that
// covers it.
type BodyItem struct {
	Offset int      // first byte of the item, from the first byte of the unit (the body's offset added)
	Len    int      // bytes of the whole item: a CBOR head and content; a JSON member from its name to the end of its value
	Head   int      // CBOR: bytes of the head (initial byte and argument); 0 in JSON
	Value  int      // JSON member: where its value starts, from Offset (after the name, colon and spaces); 0 otherwise
	Depth  int      // containers (maps, arrays, tags) the item is nested in; 0 for the body's outer item
	Path   string   // where the value sits, in JSON path notation: "params.arguments.x", "content[0]"; "" for the outer item
	Key    string   // the map key or member name the item is the key or value of, cut to 40 bytes; server text, not sanitized
	Role   ItemRole // value, key, undecodable or elided
	Label  string   // what the item is, safe to print: "map(4)", `text(7) "jsonrpc"`, "uint 3", `"id": 1` (JSON)
}

// BodyItems annotates the data items of a frame's body: for CBOR every data
// item's head and span, map keys included; for JSON every member and
// element. base is the body's offset in the frame's Raw; every Offset has
// it added. Bodies of other encodings have no items. A body that is cut
// short or malformed yields the items read before the break and one
// ItemUndecodable covering the rest; bytes after the body's one item are
// an ItemUndecodable too. Never panics; the work is linear in len(body)
// and the result holds at most MaxBodyItems+2 items.
func BodyItems(enc proto.Encoding, body []byte, base int) []BodyItem {
	l := &itemList{base: base, end: len(body)}
	switch enc {
	case proto.EncCBOR:
		cborItems(body, l)
	case proto.EncJSON:
		jsonItems(body, l)
	default:
		return nil
	}
	return l.finish()
}

// itemList collects the items of a walk, within the limits.
type itemList struct {
	items    []BodyItem
	base     int // the body's offset in the unit
	end      int // where the walk stopped: the end of the body's item, or of the body
	elided   int // items walked past the limit
	elidedAt int // body offset of the first of them
	problem  *BodyItem
}

// full reports whether the list takes no more items.
func (l *itemList) full() bool { return len(l.items) >= MaxBodyItems }

// annotates reports whether an item at depth would be annotated.
func (l *itemList) annotates(depth int) bool { return depth <= MaxBodyItemDepth && !l.full() }

// add appends it, its Offset from the body's start, and returns its index;
// -1 when it is not annotated (too deep, or past the limit).
func (l *itemList) add(it BodyItem) int {
	if it.Depth > MaxBodyItemDepth {
		return -1
	}
	if l.full() {
		if l.elided == 0 {
			l.elidedAt = it.Offset
		}
		l.elided++
		return -1
	}
	if l.items == nil { // a guess of the count, to spare the copies of growing
		l.items = make([]BodyItem, 0, min(l.end/itemBytesGuess+1, MaxBodyItems)+2)
	}
	it.Offset += l.base
	l.items = append(l.items, it)
	return len(l.items) - 1
}

// close sets the end (a body offset) of item i, and its label when one is
// given; i < 0 is an item that was not annotated.
func (l *itemList) close(i, end int, label string) {
	if i < 0 {
		return
	}
	l.items[i].Len = end + l.base - l.items[i].Offset
	if label != "" {
		l.items[i].Label = label
	}
}

// stop ends the walk at body offset off: what follows does not decode, for
// reason. The items still open run to the end of the body.
func (l *itemList) stop(off, depth int, reason string) {
	l.problem = &BodyItem{Offset: off + l.base, Len: l.end - off, Depth: min(depth, MaxBodyItemDepth), Role: ItemUndecodable,
		Label: "undecodable from here: " + reason}
}

// trailing notes the bytes after the body's item, which ended at off.
func (l *itemList) trailing(off int) {
	if off < l.end {
		n := l.end - off
		l.stop(off, 0, plural.Count(n, "byte", "bytes")+" after the body's item")
		l.end = off
	}
}

// finish returns the items with the annotations of the elided items and of
// the undecodable rest.
func (l *itemList) finish() []BodyItem {
	if l.elided > 0 {
		l.items = append(l.items, BodyItem{Offset: l.elidedAt + l.base, Len: max(l.end-l.elidedAt, 0), Role: ItemElided,
			Label: plural.Count(l.elided, "more item", "more items") + " not annotated (at most " + strconv.Itoa(MaxBodyItems) + " are)"})
	}
	if l.problem != nil {
		l.items = append(l.items, *l.problem)
	}
	return l.items
}

// childPath is the path of a member named seg of the value at parent.
func childPath(parent, seg string) string {
	if parent == "" {
		return pathWithin(seg)
	}
	return pathWithin(parent + "." + seg)
}

// elementPath is the path of element i of the array at parent.
func elementPath(parent string, i uint64) string {
	return pathWithin(parent + "[" + strconv.FormatUint(i, 10) + "]")
}

// pathWithin cuts a path to maxItemPath bytes; a cut path ends in "…" and
// stays as it is deeper down.
func pathWithin(p string) string {
	if len(p) <= maxItemPath {
		return p
	}
	s, _ := cutUTF8(p, maxItemPath)
	return s + "…"
}

// keyName is a key's text cut to maxItemKey bytes, with "…" when cut.
func keyName(b []byte) string {
	s, cut := cutUTF8(string(b), maxItemKey)
	if cut {
		s += "…"
	}
	return s
}

// quoteItemText shows a string's content between quotes, safe to print,
// cut to maxItemText bytes.
func quoteItemText(b []byte) string {
	s, cut := cutUTF8(string(b), maxItemText)
	q := termtext.QuoteMax(s, 0)
	if cut {
		q += "…"
	}
	return q
}

// cutUTF8 cuts s to at most n bytes at a character boundary, and says
// whether it cut.
func cutUTF8[T ~string | ~[]byte](s T, n int) (T, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
