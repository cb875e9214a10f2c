package termtext

import (
	"unicode/utf16"
	"unicode/utf8"
)

// JSON returns JSON text made safe to print on a terminal without changing
// the value it encodes. Valid JSON may hold, raw inside its strings, what a
// terminal acts on or reorders: DEL, the C1 controls (U+0080–U+009F; a
// terminal in an 8-bit mode reads 0x9b as CSI) and the bidirectional
// overrides. Each becomes its \uXXXX escape, and a byte that is not UTF-8
// becomes \ufffd, the character a JSON decoder reads it as. Outside
// strings JSON holds only ASCII, so every change lands inside a string.
// Text with nothing to escape is returned as it is.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			break
		}
		i += n
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				out = appendUEscape(out, 0x7f)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = appendUEscape(out, utf8.RuneError)
		case unsafeRune(r):
			out = appendUEscape(out, r)
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

func appendUEscape(out []byte, r rune) []byte {
	if r > 0xffff { // JSON spells it as a UTF-16 surrogate pair
		hi, lo := utf16.EncodeRune(r)
		return appendUEscape(appendUEscape(out, hi), lo)
	}
	out = append(out, '\\', 'u')
	for shift := 12; shift >= 0; shift -= 4 {
		out = append(out, hexDigits[(r>>shift)&0xf])
	}
	return out
}
