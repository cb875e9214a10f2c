package recordings

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"
)

// spilled names the members whose values are a frame's bytes or a
// message body: a long line reads them apart from the rest of its JSON.
var spilled = [...]string{"text", "b64", "mtext", "mb64"}

// keepLimits are the most a line may hold, beyond which it is over the
// format's limit: unquoted, the bytes of one frame member (text, mtext;
// b64 and mb64 as base64), and the rest of the line.
type keepLimits struct {
	value int // unquoted bytes of a text or mtext member
	rest  int // the line without its spilled values
	// skip says a line over the limits is read to its end and skipped;
	// otherwise reading stops there (a header that is no header).
	skip bool
}

// readKeep is what a record line may hold: a frame's bytes as the Writer
// keeps them (maxFrameKeep) and its message body, and 16 MiB of
// everything else. Tests lower it.
var readKeep = keepLimits{value: maxFrameKeep, rest: 16 << 20, skip: true}

// headerKeep bounds the header line: a few fields, a target.
var headerKeep = keepLimits{rest: 64 << 10}

// lineScan reads a line that does not fit the read buffer piece by piece,
// holding no more than what it keeps: the spilled members' values are
// unquoted as they arrive into values, left as "" in rest, and a line
// that goes past its limits is only read to its end.
type lineScan struct {
	lim    keepLimits
	rest   []byte
	values [len(spilled)][]byte
	has    [len(spilled)]bool
	over   error // why the line is over its limits; the rest is skipped

	depth  int  // nesting of objects and arrays
	inStr  bool // inside a string not spilled
	esc    bool // after a backslash in such a string
	colon  bool // the last byte at depth 1 was ':': a string there is a value
	keyAt  int  // where the depth-1 key being read starts in rest, or -1
	key    string
	value  int // the spilled member being read, or -1
	unq    unquoter
	isB64  bool
	valMax int
	fields fieldsScan
	// skipping says the message body being read is over valMax: it is
	// read to its end through scratch and dropped, the frame kept.
	skipping    bool
	scratch     []byte
	bodyDropped bool
}

// fieldsScan follows a record line's "fields" array: past the line's
// limit, the annotations from the first not whole are dropped and
// counted, rather than the line.
type fieldsScan struct {
	in       bool // inside the array
	dropping bool // past the limit: nothing more of the array is kept
	end      int  // where the last whole annotation ends in rest
	opened   int  // annotations started
	kept     int  // annotations whole at end
	dropped  int  // annotations not kept
}

func newLineScan(lim keepLimits) *lineScan {
	return &lineScan{lim: lim, keyAt: -1, value: -1}
}

// feed reads the next piece of the line (no line end).
func (s *lineScan) feed(c []byte) {
	for i := 0; i < len(c) && s.over == nil; {
		if s.value >= 0 {
			n, done := s.unquote(c[i:])
			i += n
			if done {
				s.rest = append(s.rest, '"')
				s.value = -1
			}
			continue
		}
		i += s.scan(c[i:])
		if len(s.rest) > s.fieldsMax() && s.fields.in && !s.fields.dropping {
			s.dropFields()
		}
		if len(s.rest) > s.lim.rest {
			s.over = fmt.Errorf("the line is longer than %s", sizeWords(s.lim.rest))
			if s.lim.value > 0 {
				s.over = fmt.Errorf("the line holds more than %s besides a frame's bytes", sizeWords(s.lim.rest))
			}
		}
	}
}

// scan copies JSON outside spilled values to rest until a spilled value
// starts, and returns how many bytes of c it read.
func (s *lineScan) scan(c []byte) int {
	start := 0
	fs := &s.fields
	flush := func(end int) {
		if !fs.dropping {
			s.rest = append(s.rest, c[start:end]...)
		}
		start = end
	}
	for i := 0; i < len(c); i++ {
		b := c[i]
		if s.inStr {
			switch {
			case s.esc:
				s.esc = false
			case b == '\\':
				s.esc = true
			case b == '"':
				s.inStr = false
				if s.keyAt >= 0 {
					flush(i + 1)
					s.key = string(s.rest[s.keyAt : len(s.rest)-1])
					s.keyAt = -1
				}
			}
			continue
		}
		switch b {
		case ' ', '\t', '\r':
			continue
		case '{', '[':
			switch {
			case s.depth == 1 && s.colon && b == '[' && s.key == "fields" && s.lim.value > 0:
				flush(i + 1)
				s.fields = fieldsScan{in: true, end: len(s.rest)}
			case fs.in && s.depth == 2:
				fs.opened++
			}
			s.depth++
		case '}', ']':
			s.depth--
			switch {
			case fs.in && s.depth == 2 && !fs.dropping:
				flush(i + 1)
				if len(s.rest) <= s.fieldsMax() {
					fs.end, fs.kept = len(s.rest), fs.opened
				} else {
					s.dropFields()
				}
			case fs.in && s.depth == 1:
				fs.in = false
				if fs.dropping {
					fs.dropping, fs.dropped = false, fs.opened-fs.kept
					start = i // the array's end is kept
				}
			}
		case '"':
			s.inStr = true
			switch {
			case s.depth != 1:
			case !s.colon:
				flush(i + 1)
				s.keyAt = len(s.rest)
			default:
				if v := spilledIndex(s.key); v >= 0 {
					flush(i + 1)
					s.startValue(v)
					s.inStr = false
					s.colon = false
					return i + 1
				}
			}
		}
		s.colon = b == ':' && s.depth == 1
	}
	flush(len(c))
	return len(c)
}

// fieldsMax is where the rest of a line stops taking annotations: three
// quarters of its limit, leaving the members after them room.
func (s *lineScan) fieldsMax() int { return s.lim.rest / 4 * 3 }

// dropFields drops the annotations past the last whole one within the
// line's limit, and what else of the array follows.
func (s *lineScan) dropFields() {
	s.rest = s.rest[:s.fields.end]
	s.fields.dropping = true
}

// isBody says spilled member v is a message body (mtext, mb64).
func isBody(v int) bool { return spilled[v] == "mtext" || spilled[v] == "mb64" }

// bodyNotKept is the error of a frame whose message body was dropped.
var bodyNotKept = fmt.Sprintf("its message body, beside the frame's bytes, is over the %s a recording keeps and was not read", sizeWords(maxFrameKeep))

// spilledIndex is the index of member key in spilled, or -1.
func spilledIndex(key string) int {
	for i, k := range spilled {
		if k == key {
			return i
		}
	}
	return -1
}

// startValue starts reading spilled member v, last one winning.
func (s *lineScan) startValue(v int) {
	s.value, s.has[v] = v, true
	s.values[v] = s.values[v][:0]
	s.unq, s.skipping = unquoter{}, false
	if isBody(v) {
		s.bodyDropped = false
	}
	s.isB64 = spilled[v] == "b64" || spilled[v] == "mb64"
	s.valMax = s.lim.value
	if s.isB64 {
		s.valMax = base64.StdEncoding.EncodedLen(s.lim.value)
	}
}

// unquote reads the spilled value's string from c up to its closing quote
// and returns how many bytes it read and whether the string ended.
func (s *lineScan) unquote(c []byte) (int, bool) {
	if s.skipping {
		n, done, err := s.unq.unquote(&s.scratch, c)
		s.scratch = s.scratch[:0]
		if err != nil {
			s.over = err
		}
		return n, done
	}
	v := &s.values[s.value]
	// Unescaping never lengthens: a piece of room bytes adds at most
	// about room, so the value never grows far past valMax.
	c = c[:min(len(c), s.valMax+1-len(*v))]
	if need := len(*v) + len(c) + 2*utf8.UTFMax; need > cap(*v) {
		// Doubling, up to what the value may hold: the copies of a
		// 64 MiB value add up to about as much again.
		limit := s.valMax + 1 + 2*utf8.UTFMax
		n := max(2*cap(*v), need, 64<<10)
		if 2*n > limit {
			n = limit
		}
		*v = append(make([]byte, 0, max(n, need)), *v...)
	}
	n, done, err := s.unq.unquote(v, c)
	switch {
	case err != nil:
		s.over = err
	case len(*v) > s.valMax && isBody(s.value):
		// An older writer kept a body this long beside a frame cut
		// to maxFrameKeep: the body is dropped, not the frame.
		s.values[s.value], s.has[s.value] = nil, false
		s.skipping, s.bodyDropped = true, true
	case len(*v) > s.valMax:
		s.over = fmt.Errorf("its %q holds more than the %s a recording keeps of one frame", spilled[s.value], sizeWords(s.lim.value))
	}
	return n, done
}

// finish checks the line once read and returns its rest and values, the
// b64 ones decoded.
func (s *lineScan) finish() ([]byte, *spilledValues, error) {
	switch {
	case s.over != nil:
		return nil, nil, s.over
	case s.value >= 0 || s.inStr:
		return nil, nil, fmt.Errorf("a string is not closed")
	}
	sv := &spilledValues{fieldsDropped: s.fields.dropped, bodyDropped: s.bodyDropped}
	for i := range spilled {
		if !s.has[i] {
			continue
		}
		b := validUTF8(s.values[i])
		if spilled[i] == "b64" || spilled[i] == "mb64" {
			d := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
			n, err := base64.StdEncoding.Decode(d, b)
			if err != nil {
				return nil, nil, fmt.Errorf("%q is not base64: %w", spilled[i], err)
			}
			b = d[:n]
		}
		sv.of[i], sv.has[i] = b, true
	}
	return s.rest, sv, nil
}

// spilledValues are the values a long line's spilled members held.
type spilledValues struct {
	of  [len(spilled)][]byte
	has [len(spilled)]bool
	// fieldsDropped counts the annotations dropped past the line's limit.
	fieldsDropped int
	// bodyDropped says the message body was over the line's limit and
	// dropped.
	bodyDropped bool
}

// set puts the values in l, whose members hold "" in their place: text
// and b64 as the frame's bytes, mtext and mb64 as its message body.
func (sv *spilledValues) set(l *line) {
	if sv == nil {
		return
	}
	if sv.has[0] || sv.has[1] {
		l.Text, l.B64 = nil, sv.bytes(0, 1)
	}
	if sv.has[2] || sv.has[3] {
		l.MText, l.MB64 = nil, sv.bytes(2, 3)
	}
	if sv.bodyDropped {
		l.MText, l.MB64 = nil, nil
		l.Err = strings.TrimPrefix(l.Err+"; "+bodyNotKept, "; ")
	}
	if sv.fieldsDropped > 0 && l.K == kindFrame {
		n := len(bytesOf(l.Text, l.B64))
		l.Fields = append(l.Fields, notKept(l.Fields, n, max(l.Size, n), sv.fieldsDropped))
	}
}

// bytes is the text member's value when the line has one, else the
// base64 one's (as bytesOf reads them), never nil.
func (sv *spilledValues) bytes(text, b64 int) []byte {
	b := sv.of[b64]
	if sv.has[text] {
		b = sv.of[text]
	}
	if b == nil {
		b = []byte{}
	}
	return b
}

// validUTF8 replaces each byte of b that is not UTF-8 with U+FFFD, as
// encoding/json reads a string.
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out = utf8.AppendRune(out, r)
		b = b[n:]
	}
	return out
}

// sizeWords says n bytes in MiB or KiB.
func sizeWords(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
