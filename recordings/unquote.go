package recordings

import (
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// unquoter undoes the escapes of a JSON string that arrives in pieces, as
// encoding/json reads one: a lone surrogate becomes U+FFFD.
type unquoter struct {
	esc int  // 0 outside an escape, 1 after its backslash, 2…5 in its \u digits
	r   rune // the \u digits so far
	hi  rune // a high surrogate waiting for its low half, or 0
}

var errControl = errors.New("a string holds a control character")

// unquote appends the string's bytes in c to dst up to its closing quote,
// and returns how many bytes of c it read and whether the string ended.
func (u *unquoter) unquote(dst *[]byte, c []byte) (int, bool, error) {
	start := 0
	for i := 0; i < len(c); i++ {
		b := c[i]
		if u.esc > 0 {
			if err := u.escape(dst, b); err != nil {
				return i, false, err
			}
			start = i + 1
			continue
		}
		if b >= 0x20 && b != '"' && b != '\\' {
			continue
		}
		u.pending(dst, c[start:i])
		switch {
		case b == '"':
			u.lone(dst)
			return i + 1, true, nil
		case b == '\\':
			u.esc = 1
		default:
			return i, false, errControl
		}
		start = i + 1
	}
	u.pending(dst, c[start:])
	return len(c), false, nil
}

// pending appends raw, after a high surrogate left alone before it.
func (u *unquoter) pending(dst *[]byte, raw []byte) {
	if len(raw) > 0 {
		u.lone(dst)
		*dst = append(*dst, raw...)
	}
}

// lone writes a high surrogate that got no low half as U+FFFD.
func (u *unquoter) lone(dst *[]byte) {
	if u.hi != 0 {
		*dst = utf8.AppendRune(*dst, utf8.RuneError)
		u.hi = 0
	}
}

// escape reads byte b of an escape.
func (u *unquoter) escape(dst *[]byte, b byte) error {
	if u.esc == 1 {
		var c byte
		switch b {
		case 'u':
			u.esc, u.r = 2, 0
			return nil
		case '"', '\\', '/':
			c = b
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default:
			return errors.New("a string holds an unknown escape")
		}
		u.lone(dst)
		*dst = append(*dst, c)
		u.esc = 0
		return nil
	}
	var d rune
	switch {
	case b >= '0' && b <= '9':
		d = rune(b - '0')
	case b >= 'a' && b <= 'f':
		d = rune(b-'a') + 10
	case b >= 'A' && b <= 'F':
		d = rune(b-'A') + 10
	default:
		return errors.New("a string holds a broken \\u escape")
	}
	u.r = u.r<<4 | d
	if u.esc++; u.esc < 6 {
		return nil
	}
	u.esc = 0
	r := u.r
	switch {
	case u.hi != 0 && utf16.IsSurrogate(r) && r >= 0xDC00:
		*dst = utf8.AppendRune(*dst, utf16.DecodeRune(u.hi, r))
		u.hi = 0
	case utf16.IsSurrogate(r) && r < 0xDC00:
		u.lone(dst)
		u.hi = r
	default:
		u.lone(dst)
		*dst = utf8.AppendRune(*dst, r) // a lone low surrogate is U+FFFD
	}
	return nil
}
