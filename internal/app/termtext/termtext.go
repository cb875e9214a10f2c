// Package termtext makes text a server controls safe to print on a
// terminal. Every piece of server text that mcpscope shows — an error
// message, a progress message, log data, a stderr line, a tool's
// description, a wizard's prompt — passes through it, in the headless
// commands and in the TUI alike.
//
// A terminal acts on escape sequences: ESC ] 0 ; … BEL retitles the window,
// ESC ] 52 ; c ; … writes the clipboard, ESC [ 2 J clears the screen. The
// functions here show every such byte instead of sending it: C0 controls,
// DEL and the C1 controls (U+0080–U+009F) as Go-style escapes (\x1b,
// \x7f, \u009b), the Unicode bidirectional overrides and isolates as \u
// escapes (they reorder what the reader sees), and invalid UTF-8 bytes as
// \xNN. Printable text, including every other non-ASCII character, is kept.
package termtext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMax is the longest text, in bytes, that Line and Block keep; a
// longer one is cut at a character boundary and says how much was left out.
const DefaultMax = 64 << 10

// Line makes s safe to print and keeps it on one line: line breaks and
// tabs are shown as \n, \r and \t like every other control. Text over
// DefaultMax bytes is shortened.
func Line(s string) string { return sanitize(s, DefaultMax, false) }

// Block makes s safe to print keeping its line breaks and tabs (a stderr
// tail, a description). A CR is shown as \r unless it ends a line (CRLF).
// Text over DefaultMax bytes is shortened.
func Block(s string) string { return sanitize(s, DefaultMax, true) }

// LineMax is Line with a byte limit of its own (max ≤ 0: no limit).
func LineMax(s string, max int) string { return sanitize(s, max, false) }

// BlockMax is Block with a byte limit of its own (max ≤ 0: no limit).
func BlockMax(s string, max int) string { return sanitize(s, max, true) }

// QuoteMax renders s between double quotes, safe to print: quotes and
// backslashes are escaped with a backslash, everything else as Line does,
// and text over max bytes is shortened (max ≤ 0: no limit). Unlike
// strconv.Quote it keeps printable non-ASCII text as it is.
func QuoteMax(s string, max int) string {
	if strings.ContainsAny(s, `"\`) {
		s = quoteEscapes.Replace(s)
	}
	return `"` + sanitize(s, max, false) + `"`
}

var quoteEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// Safe reports whether s prints as itself under Line: printable text with
// no control, no bidi override and valid UTF-8.
func Safe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			return false
		}
		i += n
	}
	return true
}

// Shorten cuts s to at most max bytes at a character boundary and appends
// how many bytes were left out: "… (2097152 bytes, 2031616 not shown)". It
// does not sanitize. With max ≤ 0 or a short s it returns s.
func Shorten(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + omitted(len(s), len(s)-cut)
}

func omitted(total, left int) string {
	return "… (" + strconv.Itoa(total) + " bytes, " + strconv.Itoa(left) + " not shown)"
}

// sanitize escapes what a terminal would act on and shortens s to max
// bytes of input (max ≤ 0: no limit). keepBreaks keeps LF, CRLF and TAB.
func sanitize(s string, max int, keepBreaks bool) string {
	if max <= 0 || len(s) <= max {
		i := 0
		for ; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x7f {
				break
			}
		}
		if i == len(s) || Safe(s[i:]) {
			return s // printable text, the common case, costs no copy
		}
	}
	end := len(s)
	if max > 0 && end > max {
		end = max
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
	}
	var b strings.Builder
	b.Grow(end + 16)
	for i := 0; i < end; {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case keepBreaks && (c == '\n' || c == '\t'):
				b.WriteByte(c)
			case keepBreaks && c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// CRLF ends a line: the LF is written next.
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			default:
				writeByteEscape(&b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:end])
		switch {
		case r == utf8.RuneError && n == 1:
			writeByteEscape(&b, c)
		case unsafeRune(r):
			writeRuneEscape(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	if end < len(s) {
		b.WriteString(omitted(len(s), len(s)-end))
	}
	return b.String()
}

// unsafeRune reports the non-ASCII runes a terminal must not get raw: the
// C1 controls, the bidirectional embeddings, overrides and isolates, and
// the kitty graphics placeholder (a terminal draws in its cell a picture
// mcpscope placed, so server text could show one where it does not
// belong).
func unsafeRune(r rune) bool {
	switch {
	case r == kittyPlaceholder:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	}
	return false
}

const hexDigits = "0123456789abcdef"

func writeByteEscape(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

// kittyPlaceholder is the kitty graphics protocol's Unicode placeholder.
const kittyPlaceholder = 0x10EEEE

func writeRuneEscape(b *strings.Builder, r rune) {
	top := 12
	if r > 0xffff {
		b.WriteString(`\U`)
		top = 28
	} else {
		b.WriteString(`\u`)
	}
	for shift := top; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}
