package jsonrpc

import "strconv"

// jsonLevel is an object or array whose members the walk is reading.
type jsonLevel struct {
	item    int    // its index in the list; -1 when not annotated
	start   int    // body offset of its item (a member's name, or the bracket)
	closing byte   // '}' or ']'
	n       uint64 // members or elements read
	path    string // path of the container's value
	prefix  string // a member's `"name": `, which starts its label
}

// kind names the container in a label.
func (v *jsonLevel) kind() string {
	if v.closing == '}' {
		return "object"
	}
	return "array"
}

// jsonWalk annotates the members and elements of a JSON body with the
// scanner of jsonscan.go, without recursion: the open containers are a
// stack no deeper than MaxBodyItemDepth, deeper values being skipped whole.
type jsonWalk struct {
	s     scanner
	l     *itemList
	stack []jsonLevel
}

// jsonItems walks the value of body into l.
func jsonItems(body []byte, l *itemList) {
	w := jsonWalk{s: scanner{b: body}, l: l}
	w.s.ws()
	if w.s.i >= len(body) {
		return
	}
	it, prefix := BodyItem{Offset: w.s.i}, ""
	for {
		opened, problem := w.value(it, prefix)
		if problem != "" {
			w.stop(it.Offset, problem)
			return
		}
		if !opened {
			if problem := w.closeDone(); problem != "" {
				w.stop(w.s.i, problem)
				return
			}
		}
		if len(w.stack) == 0 {
			w.s.ws()
			l.trailing(w.s.i)
			return
		}
		if it, prefix, problem = w.slot(); problem != "" {
			w.stop(it.Offset, problem)
			return
		}
	}
}

// value reads the value at s.i of the item it (whose label starts with
// prefix): a container is opened, and opened is true when members follow;
// anything else is read whole.
func (w *jsonWalk) value(it BodyItem, prefix string) (opened bool, problem string) {
	if w.s.i >= len(w.s.b) {
		return false, jsonProblem(scanTruncated, "value")
	}
	c := w.s.b[w.s.i]
	if (c == '{' || c == '[') && it.Depth < MaxBodyItemDepth {
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		w.stack = append(w.stack, jsonLevel{item: w.l.add(it), start: it.Offset, closing: closing, path: it.Path, prefix: prefix})
		w.s.i++
		if w.s.empty(closing) {
			w.pop()
			return false, ""
		}
		return true, ""
	}
	from := w.s.i
	st := w.s.value(2)
	if st == scanTruncated && len(w.stack) == 0 && w.s.i == len(w.s.b) && c != '"' {
		st = scanOK // a number, true, false or null that ends the body is whole
	}
	if st != scanOK {
		return false, jsonProblem(st, "value")
	}
	it.Len = w.s.i - it.Offset
	if w.l.annotates(it.Depth) {
		it.Label = prefix + jsonValueLabel(w.s.b[from:w.s.i])
	}
	w.l.add(it)
	return false, ""
}

// closeDone reads the separators after a value, closing the containers
// that end there.
func (w *jsonWalk) closeDone() string {
	for len(w.stack) > 0 {
		top := &w.stack[len(w.stack)-1]
		done, st := w.s.next(top.closing)
		if st != scanOK {
			return jsonProblem(st, "separator")
		}
		if !done {
			return ""
		}
		w.pop()
	}
	return ""
}

// pop closes the innermost container, whose closing bracket was just read.
func (w *jsonWalk) pop() {
	top := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	w.l.close(top.item, w.s.i, top.prefix+top.kind()+"("+strconv.FormatUint(top.n, 10)+")")
}

// slot reads what places the next member or element of the innermost
// container: a member's name and colon; it returns the item placed and
// the start of its label.
func (w *jsonWalk) slot() (BodyItem, string, string) {
	top := &w.stack[len(w.stack)-1]
	w.s.ws()
	it := BodyItem{Offset: w.s.i, Depth: len(w.stack)}
	shown := w.l.annotates(it.Depth)
	top.n++
	if top.closing == ']' {
		if shown {
			it.Path = elementPath(top.path, top.n-1)
		}
		return it, "", ""
	}
	quoted, st := w.s.name()
	if st != scanOK {
		return it, "", jsonProblem(st, "name")
	}
	it.Value = w.s.i - it.Offset
	if !shown {
		return it, "", ""
	}
	name := memberName(quoted)
	it.Key = keyName(name)
	it.Path = childPath(top.path, it.Key)
	return it, quoteItemText(name) + ": ", ""
}

// stop ends the walk at pos for reason; the open containers run to the
// end, their labels saying how many members were read.
func (w *jsonWalk) stop(pos int, reason string) {
	for _, v := range w.stack {
		w.l.close(v.item, len(w.s.b), v.prefix+v.kind()+"(≥"+strconv.FormatUint(v.n, 10)+")")
	}
	w.l.stop(pos, len(w.stack), reason)
}

// jsonProblem says why the body does not decode where the walk expected
// a value, a name or a separator.
func jsonProblem(st scanStatus, expected string) string {
	if st == scanTruncated {
		return "the body ends inside this " + expected
	}
	switch expected {
	case "name":
		return `not JSON: a member's quoted name and ":" belong here`
	case "separator":
		return `not JSON: "," or a closing bracket belongs here`
	}
	return "not JSON"
}

// jsonValueLabel shows a value read whole: a scalar as written (cut), a
// container nested too deep as what it is.
func jsonValueLabel(v []byte) string {
	switch v[0] {
	case '{':
		return "object (deeper items not annotated)"
	case '[':
		return "array (deeper items not annotated)"
	}
	return quoteValue(v)
}
