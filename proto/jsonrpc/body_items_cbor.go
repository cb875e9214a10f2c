package jsonrpc

import (
	"encoding/hex"
	"errors"
	"io"
	"math"
	"strconv"
)

// cborLevel is an array, map or tag whose members the walk is reading.
type cborLevel struct {
	item  int    // its index in the list; -1 when not annotated
	major byte   // cborArray, cborMap or cborTag
	left  uint64 // members still to come (a map counts pairs, a tag one item); unused when indef
	indef bool   // an indefinite-length array or map, ended by a break code
	n     uint64 // members read (pairs of a map)
	key   bool   // a map whose next item is a key
	path  string // path of the container's value
	name  string // a map: the key of the pair being read, or the tag's own key
	entry string // a map: path of the pair being read
}

// done reports whether a definite-length level has all its members.
func (v *cborLevel) done() bool { return !v.indef && v.left == 0 }

// cborWalk annotates the items of a CBOR body without recursion: the open
// containers are a stack no deeper than CBORMaxNestedLevels.
type cborWalk struct {
	in    []byte
	l     *itemList
	stack []cborLevel
}

// cborItems walks the one data item of body into l.
func cborItems(body []byte, l *itemList) {
	if len(body) == 0 {
		return
	}
	w := cborWalk{in: body, l: l}
	pos := 0
	for {
		w.closeDone(pos)
		if len(w.stack) == 0 && pos > 0 {
			l.trailing(pos)
			return
		}
		next, problem := w.item(pos)
		if problem != "" {
			w.stop(pos, problem)
			return
		}
		pos = next
	}
}

// closeDone closes at pos, from the innermost, the containers that have
// all their members.
func (w *cborWalk) closeDone(pos int) {
	for len(w.stack) > 0 && w.stack[len(w.stack)-1].done() {
		w.pop(pos)
	}
}

// pop closes the innermost container, which ends at pos, and counts it as
// a member of its own container.
func (w *cborWalk) pop(pos int) {
	top := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	w.l.close(top.item, pos, "")
	w.advance()
}

// stop ends the walk at pos for reason; the open containers run to the end.
func (w *cborWalk) stop(pos int, reason string) {
	for _, v := range w.stack {
		w.l.close(v.item, len(w.in), "")
	}
	w.l.stop(pos, len(w.stack), reason)
}

// item reads the item at pos, annotates it, and returns the offset after
// it (after its head, for a container), or why it does not decode.
func (w *cborWalk) item(pos int) (int, string) {
	h, err := readCBORHead(w.in, pos)
	if err != nil {
		return 0, cborProblem(err)
	}
	if h.major == cborSimple && h.indefinite() {
		return w.breakCode(h, pos)
	}
	it, top := w.slot(pos)
	it.Head = h.next - pos
	shown := w.l.annotates(it.Depth)
	switch h.major {
	case cborArray, cborMap, cborTag:
		if len(w.stack) >= CBORMaxNestedLevels {
			return 0, "nests deeper than " + strconv.Itoa(CBORMaxNestedLevels) + " levels"
		}
		if shown {
			it.Label = cborContainerLabel(h)
			if it.Depth == MaxBodyItemDepth && (h.indefinite() || h.arg > 0) {
				it.Label += " (deeper items not annotated)"
			}
			w.named(top, &it, "?")
		}
		w.push(h, w.l.add(it), it.Path, it.Key)
		return h.next, ""
	case cborBytes, cborText:
		content, next, err := (&cborToJSON{in: w.in}).stringContent(h, pos)
		if err != nil {
			return 0, cborProblem(err)
		}
		it.Len = next - pos
		if shown {
			it.Label = cborStringLabel(h, content)
			name := "?"
			if h.major == cborText {
				name = keyName(content)
			}
			w.named(top, &it, name)
		}
		w.l.add(it)
		w.advance()
		return next, ""
	}
	it.Len = it.Head
	if shown {
		it.Label = cborScalarLabel(h)
		name := "?"
		if h.major == cborUint || h.major == cborNegint {
			name = it.Label[len(cborMajorPrefix[h.major]):]
		}
		w.named(top, &it, name)
	}
	w.l.add(it)
	w.advance()
	return h.next, ""
}

// cborMajorPrefix is how cborScalarLabel starts the label of an integer.
var cborMajorPrefix = [...]string{cborUint: "uint ", cborNegint: "negint "}

// breakCode ends the innermost indefinite-length container, where a break
// code may stand.
func (w *cborWalk) breakCode(h cborHead, pos int) (int, string) {
	if len(w.stack) == 0 {
		return 0, "a break code stands where the body's item belongs"
	}
	top := &w.stack[len(w.stack)-1]
	if !top.indef || top.major == cborMap && !top.key {
		return 0, "a break code stands where a data item belongs"
	}
	w.pop(h.next)
	return h.next, ""
}

// slot returns the item at pos as its container places it (depth, path,
// key, role), and that container (nil at the top).
func (w *cborWalk) slot(pos int) (BodyItem, *cborLevel) {
	it := BodyItem{Offset: pos, Depth: len(w.stack)}
	if len(w.stack) == 0 {
		return it, nil
	}
	top := &w.stack[len(w.stack)-1]
	switch {
	case top.major == cborMap && top.key:
		it.Role = ItemKey
	case top.major == cborArray:
		if w.l.annotates(it.Depth) {
			it.Path = elementPath(top.path, top.n)
		}
	default: // a map's value or a tag's content
		it.Path, it.Key = top.entry, top.name
	}
	return it, top
}

// named makes name (a text key's content, an integer key's value, else
// "?") the key and path of the pair whose key it is.
func (w *cborWalk) named(top *cborLevel, it *BodyItem, name string) {
	if it.Role != ItemKey {
		return
	}
	top.name, top.entry = name, childPath(top.path, name)
	it.Key, it.Path = name, top.entry
}

// push opens the container with head h, annotated as item i.
func (w *cborWalk) push(h cborHead, i int, path, name string) {
	v := cborLevel{item: i, major: h.major, left: h.arg, indef: h.indefinite(), key: h.major == cborMap, path: path}
	if h.major == cborTag { // its content takes its place: path and key
		v.left, v.name, v.entry = 1, name, path
	}
	w.stack = append(w.stack, v)
}

// advance counts one more member of the innermost container.
func (w *cborWalk) advance() {
	if len(w.stack) == 0 {
		return
	}
	top := &w.stack[len(w.stack)-1]
	if top.major == cborMap {
		top.key = !top.key
		if !top.key {
			return // a key: its value comes next
		}
	}
	top.n++
	if !top.indef {
		top.left--
	}
}

// cborProblem says why an item does not decode, without the offsets of
// the error (the annotation's Offset says where).
func cborProblem(err error) string {
	var syntax *cborSyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the body ends inside this item"
	case errors.As(err, &syntax):
		return "not well-formed CBOR"
	}
	return err.Error()
}

// cborContainerLabel names an array, map or tag: "map(4)", "array(_)", "tag 2".
func cborContainerLabel(h cborHead) string {
	name := [...]string{cborArray: "array", cborMap: "map", cborTag: "tag"}[h.major]
	switch {
	case h.major == cborTag:
		return "tag " + strconv.FormatUint(h.arg, 10)
	case h.indefinite():
		return name + "(_)"
	}
	return name + "(" + strconv.FormatUint(h.arg, 10) + ")"
}

// cborStringLabel names a byte or text string and shows its start:
// `text(7) "jsonrpc"`, "bytes(3) h'010203'".
func cborStringLabel(h cborHead, content []byte) string {
	size := "(_)"
	if !h.indefinite() {
		size = "(" + strconv.FormatUint(h.arg, 10) + ")"
	}
	if h.major == cborText {
		return "text" + size + " " + quoteItemText(content)
	}
	shown, more := content, ""
	if len(shown) > maxItemBytes {
		shown, more = shown[:maxItemBytes], "…"
	}
	return "bytes" + size + " h'" + hex.EncodeToString(shown) + more + "'"
}

// cborScalarLabel names an integer, a simple value or a float: "uint 3",
// "negint -4", "true", "null", "simple(16)", "float64 0.5".
func cborScalarLabel(h cborHead) string {
	switch h.major {
	case cborUint:
		return "uint " + strconv.FormatUint(h.arg, 10)
	case cborNegint:
		return "negint " + string(appendNegint(nil, h.arg))
	}
	switch h.info {
	case 20:
		return "false"
	case 21:
		return "true"
	case 22:
		return "null"
	case 23:
		return "undefined"
	case 25:
		return "float16 " + formatItemFloat(halfToFloat64(uint16(h.arg)))
	case 26:
		return "float32 " + formatItemFloat(float64(math.Float32frombits(uint32(h.arg))))
	case 27:
		return "float64 " + formatItemFloat(math.Float64frombits(h.arg))
	}
	return "simple(" + strconv.FormatUint(h.arg, 10) + ")"
}

// formatItemFloat writes a float as diagnostic notation does: NaN, Infinity.
func formatItemFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
