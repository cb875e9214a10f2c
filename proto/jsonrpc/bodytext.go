package jsonrpc

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the byte order mark some writers put before UTF-8 text.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// withoutBOM returns body without a leading UTF-8 byte order mark.
func withoutBOM(body []byte) []byte { return bytes.TrimPrefix(body, utf8BOM) }

// TextWarning says a JSON body decoded but its text was not clean: it
// started with a UTF-8 byte order mark, which the decoder skipped, or it
// held bytes that are not UTF-8, which read as U+FFFD. The message is
// delivered all the same.
type TextWarning struct {
	BOM       bool // the body started with a byte order mark
	InvalidAt int  // byte offset of the first byte that is not UTF-8, or -1
}

func (w *TextWarning) Error() string {
	var parts []string
	if w.BOM {
		parts = append(parts, "the message started with a UTF-8 byte order mark, which was skipped")
	}
	if w.InvalidAt >= 0 {
		parts = append(parts, fmt.Sprintf("the message had invalid UTF-8 at byte offset %d, read as U+FFFD", w.InvalidAt))
	}
	return strings.Join(parts, "; ")
}

// CheckText returns a *TextWarning when a JSON body starts with a byte
// order mark or holds invalid UTF-8, and nil otherwise.
func CheckText(body []byte) error {
	bom := bytes.HasPrefix(body, utf8BOM)
	bad := invalidUTF8At(body)
	if !bom && bad < 0 {
		return nil
	}
	return &TextWarning{BOM: bom, InvalidAt: bad}
}

// invalidUTF8At returns the offset of the first byte of b that is not
// part of a UTF-8 sequence, or -1.
func invalidUTF8At(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}
