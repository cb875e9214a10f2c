package recordings

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// errSlowPath says a line is not in the layout the Writer writes (line's
// members in their order, as encoding/json encodes them), so
// encoding/json reads it instead.
var errSlowPath = errors.New("not the frame layout")

// unmarshalLine reads one record line into l: frame lines in the layout
// the Writer writes by a reader of their own (replay reads a recording
// about three times faster than through encoding/json alone), anything
// else, or anything unexpected, by encoding/json. Both give the same line, and so does a long line read in
// pieces: names not spelled as mcpscope writes them are refused
// (checkMembers).
func unmarshalLine(b []byte, l *line) error {
	if bytes.HasPrefix(b, []byte(`{"k":"frame"`)) {
		var fast line
		if (&scanner{b: b}).frame(&fast) == nil {
			*l = fast
			return nil
		}
	}
	if err := checkMembers(b); err != nil {
		return err
	}
	return json.Unmarshal(b, l)
}

// scanner reads the JSON of a frame line.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) byte(c byte) error {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return nil
	}
	return errSlowPath
}

// frame reads a whole frame line: an object of known members, nothing after.
func (s *scanner) frame(l *line) error {
	if err := s.byte('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			break
		}
		if !first {
			if err := s.byte(','); err != nil {
				return err
			}
		}
		key, err := s.key()
		if err != nil {
			return err
		}
		if err := s.member(key, l); err != nil {
			return err
		}
	}
	if s.i != len(s.b) {
		return errSlowPath
	}
	return nil
}

// key reads a member name without escapes and its colon.
func (s *scanner) key() (string, error) {
	if err := s.byte('"'); err != nil {
		return "", err
	}
	end := bytes.IndexByte(s.b[s.i:], '"')
	if end < 0 || bytes.IndexByte(s.b[s.i:s.i+end], '\\') >= 0 {
		return "", errSlowPath
	}
	k := string(s.b[s.i : s.i+end])
	s.i += end + 1
	return k, s.byte(':')
}

// member reads the value of member key into l.
func (s *scanner) member(key string, l *line) error {
	var err error
	switch key {
	case "k":
		l.K, err = s.str()
	case "t":
		l.T, err = s.int()
	case "seq":
		l.Seq, err = s.uint(64)
	case "dir":
		l.Dir, err = s.str()
	case "conn":
		l.Conn, err = s.str()
	case "ch":
		l.Ch, err = s.str()
	case "req":
		var v uint64
		v, err = s.uint(32)
		l.Req = uint32(v)
	case "tag":
		var v uint64
		v, err = s.uint(32)
		l.Tag = uint32(v)
	case "dch":
		var v uint64
		v, err = s.uint(8)
		l.DCh = uint8(v)
	case "text":
		var v string
		v, err = s.str()
		l.Text = &v
	case "b64":
		l.B64, err = s.b64()
	case "size":
		var v int64
		v, err = s.int()
		l.Size = int(v)
	case "enc":
		l.Enc, err = s.str()
	case "fields":
		l.Fields, err = s.fields()
	case "msg":
		l.Msg, err = s.ints()
	case "mtext":
		var v string
		v, err = s.str()
		l.MText = &v
	case "mb64":
		l.MB64, err = s.b64()
	case "menc":
		l.MEnc, err = s.str()
	case "violation":
		l.Viol, err = s.str()
	case "err":
		l.Err, err = s.str()
	default:
		return errSlowPath
	}
	return err
}

// str reads a string. Escapes are undone here; a surrogate escape or
// bytes that are not UTF-8 are left to encoding/json.
func (s *scanner) str() (string, error) {
	if err := s.byte('"'); err != nil {
		return "", err
	}
	start := s.i
	var out []byte // the unquoted string, once an escape is met
	from := start  // the first byte not yet copied to out
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			raw := s.b[from:s.i]
			s.i++
			if !utf8.Valid(raw) || out != nil && !utf8.Valid(out) {
				return s.slowString(start)
			}
			if out == nil {
				return string(raw), nil
			}
			return string(append(out, raw...)), nil
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return "", errSlowPath
			}
			out = append(out, s.b[from:s.i]...)
			n, ok := s.escape(&out)
			if !ok {
				return s.slowString(start)
			}
			s.i += n
			from = s.i
		case c < 0x20:
			return "", errSlowPath
		default:
			s.i++
		}
	}
	return "", errSlowPath
}

// escape appends what the escape at s.i stands for to out and returns its
// length; false for one encoding/json must read (a surrogate half).
func (s *scanner) escape(out *[]byte) (int, bool) {
	switch c := s.b[s.i+1]; c {
	case '"', '\\', '/':
		*out = append(*out, c)
	case 'b':
		*out = append(*out, '\b')
	case 'f':
		*out = append(*out, '\f')
	case 'n':
		*out = append(*out, '\n')
	case 'r':
		*out = append(*out, '\r')
	case 't':
		*out = append(*out, '\t')
	case 'u':
		if s.i+6 > len(s.b) {
			return 0, false
		}
		r, err := strconv.ParseUint(string(s.b[s.i+2:s.i+6]), 16, 16)
		if err != nil || r >= 0xD800 && r < 0xE000 {
			return 0, false
		}
		*out = utf8.AppendRune(*out, rune(r))
		return 6, true
	default:
		return 0, false
	}
	return 2, true
}

// slowString unquotes the string starting at start (its opening quote is
// just before) with encoding/json.
func (s *scanner) slowString(start int) (string, error) {
	end := start
	for end < len(s.b) && s.b[end] != '"' {
		if s.b[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(s.b) {
		return "", errSlowPath
	}
	var v string
	if json.Unmarshal(s.b[start-1:end+1], &v) != nil {
		return "", errSlowPath
	}
	s.i = end + 1
	return v, nil
}

// number returns the bytes of an integer: an optional minus, then digits
// without a leading zero.
func (s *scanner) number() ([]byte, error) {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || s.b[digits] == '0' && s.i-digits > 1 {
		return nil, errSlowPath
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return nil, errSlowPath
	}
	return s.b[start:s.i], nil
}

func (s *scanner) int() (int64, error) {
	n, err := s.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, errSlowPath
	}
	return v, nil
}

func (s *scanner) uint(bits int) (uint64, error) {
	n, err := s.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(string(n), 10, bits)
	if err != nil {
		return 0, errSlowPath
	}
	return v, nil
}

// b64 reads a string of standard base64.
func (s *scanner) b64() ([]byte, error) {
	str, err := s.str()
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(str)
	if err != nil {
		return nil, errSlowPath
	}
	return b, nil
}

// ints reads an array of integers.
func (s *scanner) ints() ([]int, error) {
	if err := s.byte('['); err != nil {
		return nil, err
	}
	out := []int{}
	for s.i < len(s.b) && s.b[s.i] != ']' {
		if len(out) > 0 {
			if err := s.byte(','); err != nil {
				return nil, err
			}
		}
		v, err := s.int()
		if err != nil {
			return nil, err
		}
		out = append(out, int(v))
	}
	return out, s.byte(']')
}

// fields reads the array of annotations.
func (s *scanner) fields() ([]fieldLine, error) {
	if err := s.byte('['); err != nil {
		return nil, err
	}
	out := []fieldLine{}
	for s.i < len(s.b) && s.b[s.i] != ']' {
		if len(out) > 0 {
			if err := s.byte(','); err != nil {
				return nil, err
			}
		}
		f, err := s.field()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, s.byte(']')
}

// field reads one annotation object.
func (s *scanner) field() (fieldLine, error) {
	var f fieldLine
	if err := s.byte('{'); err != nil {
		return f, err
	}
	for first := true; ; first = false {
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			return f, nil
		}
		if !first {
			if err := s.byte(','); err != nil {
				return f, err
			}
		}
		key, err := s.key()
		if err != nil {
			return f, err
		}
		var v int64
		switch key {
		case "o":
			v, err = s.int()
			f.O = int(v)
		case "n":
			v, err = s.int()
			f.N = int(v)
		case "k":
			var u uint64
			u, err = s.uint(8)
			f.K = uint8(u)
		case "f":
			f.F, err = s.str()
		case "v":
			f.V, err = s.str()
		default:
			return f, errSlowPath
		}
		if err != nil {
			return f, err
		}
	}
}
