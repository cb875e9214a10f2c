package proto

import "encoding/binary"

// validJSON reports whether b is one JSON value with only white space
// around it, exactly as encoding/json.Valid does (strings are not checked
// for UTF-8; nesting deeper than MaxJSONDepth is invalid), at the speed of
// a scan: it runs through string contents eight bytes at a time, where
// json.Valid's state machine takes a call per byte. It does not recurse.
func validJSON(b []byte) bool {
	v := validator{b: b}
	v.ws()
	if !v.value() {
		return false
	}
	v.ws()
	return v.i == len(v.b)
}

// validator walks a JSON text for validJSON. open holds, for each array or
// object it is inside, whether it is an object.
type validator struct {
	b    []byte
	i    int
	open []bool
	room [64]bool // open's first levels, off the heap
}

// ws skips white space.
func (v *validator) ws() {
	for v.i < len(v.b) && isJSONSpace(v.b[v.i]) {
		v.i++
	}
}

// value checks the value at i and everything nested in it, and moves
// past it: a loop over the values met, arrays and objects opened on open.
func (v *validator) value() bool {
	v.open = v.room[:0]
	want := true // a value comes next
	for {
		if want {
			v.ws()
			if v.i >= len(v.b) {
				return false
			}
			switch c := v.b[v.i]; c {
			case '{', '[':
				if len(v.open) >= MaxJSONDepth {
					return false
				}
				v.i++
				v.ws()
				if v.i < len(v.b) && (c == '{' && v.b[v.i] == '}' || c == '[' && v.b[v.i] == ']') {
					v.i++ // empty: a whole value
					break
				}
				v.open = append(v.open, c == '{')
				if c == '{' && !v.member() {
					return false
				}
				continue
			case '"':
				if !v.str() {
					return false
				}
			case 't':
				if !v.literal("true") {
					return false
				}
			case 'f':
				if !v.literal("false") {
					return false
				}
			case 'n':
				if !v.literal("null") {
					return false
				}
			default:
				if !v.number() {
					return false
				}
			}
		}
		// A value ended: what follows it in the array or object it is in.
		if len(v.open) == 0 {
			return true
		}
		v.ws()
		if v.i >= len(v.b) {
			return false
		}
		object := v.open[len(v.open)-1]
		switch c := v.b[v.i]; {
		case c == ',':
			v.i++
			if object && !v.member() {
				return false
			}
			want = true
		case c == '}' && object, c == ']' && !object:
			v.i++
			v.open = v.open[:len(v.open)-1]
			want = false
		default:
			return false
		}
	}
}

// member checks a member's name and the colon after it.
func (v *validator) member() bool {
	v.ws()
	if v.i >= len(v.b) || v.b[v.i] != '"' || !v.str() {
		return false
	}
	v.ws()
	if v.i >= len(v.b) || v.b[v.i] != ':' {
		return false
	}
	v.i++
	return true
}

// literal checks that word is at i.
func (v *validator) literal(word string) bool {
	if len(v.b)-v.i < len(word) || string(v.b[v.i:v.i+len(word)]) != word {
		return false
	}
	v.i += len(word)
	return true
}

// number checks a number at i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *validator) number() bool {
	if v.i < len(v.b) && v.b[v.i] == '-' {
		v.i++
	}
	switch {
	case v.i >= len(v.b):
		return false
	case v.b[v.i] == '0':
		v.i++
	case '1' <= v.b[v.i] && v.b[v.i] <= '9':
		v.digits()
	default:
		return false
	}
	if v.i < len(v.b) && v.b[v.i] == '.' {
		v.i++
		if !v.digits() {
			return false
		}
	}
	if v.i < len(v.b) && (v.b[v.i] == 'e' || v.b[v.i] == 'E') {
		v.i++
		if v.i < len(v.b) && (v.b[v.i] == '+' || v.b[v.i] == '-') {
			v.i++
		}
		if !v.digits() {
			return false
		}
	}
	return true
}

// digits skips one or more digits; false when there is none.
func (v *validator) digits() bool {
	from := v.i
	for v.i < len(v.b) && '0' <= v.b[v.i] && v.b[v.i] <= '9' {
		v.i++
	}
	return v.i > from
}

// Masks of the eight-byte steps through a string: a byte below 0x20, a
// quote or a backslash needs a look of its own.
const (
	lowBytes  = 0x0101010101010101
	highBits  = 0x8080808080808080
	quotes    = '"' * lowBytes
	backslash = '\\' * lowBytes
)

// special has the high bit of each byte of x that is below 0x20, a quote or
// a backslash set (and maybe of a byte after one such: enough to say
// whether there is one).
func special(x uint64) uint64 {
	q, s := x^quotes, x^backslash // a zero byte where x has a quote, a backslash
	return ((x-0x20*lowBytes)&^x | (q-lowBytes)&^q | (s-lowBytes)&^s) & highBits
}

// str checks the string that starts at i and moves past it: no control
// character, escapes as JSON has them.
func (v *validator) str() bool {
	b := v.b
	i := v.i + 1
	for {
		for i+16 <= len(b) && special(binary.LittleEndian.Uint64(b[i:]))|special(binary.LittleEndian.Uint64(b[i+8:])) == 0 {
			i += 16
		}
		for i+8 <= len(b) && special(binary.LittleEndian.Uint64(b[i:])) == 0 {
			i += 8
		}
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			v.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			n, ok := escape(b[i+1:])
			if !ok {
				return false
			}
			i += 1 + n
		default:
			i++
		}
	}
}

// escape checks the escape after a backslash at the start of b and
// returns its length.
func escape(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	switch b[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1, true
	case 'u':
		if len(b) < 5 {
			return 0, false
		}
		for _, c := range b[1:5] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0, false
			}
		}
		return 5, true
	}
	return 0, false
}
