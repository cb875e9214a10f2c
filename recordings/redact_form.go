package recordings

import (
	"bytes"
	"strconv"

	"github.com/mcpscope/mcpscope/proto/httphead"
)

// formValues finds, in text that may hold a form body or a query
// ("grant_type=refresh_token&refresh_token=…&client_secret=…"), the
// ranges of the values of fields whose names are secrets: a name of
// letters, digits, '_', '-' and '.' after the start, '&', '?' or a space,
// then '=', then the value up to '&', a space, a quote or the end. A
// value masked already ("<redacted N bytes>…") is left as it is.
func formValues(b []byte) [][2]int {
	var out [][2]int
	for i := 0; i < len(b); {
		eq := bytes.IndexByte(b[i:], '=')
		if eq < 0 {
			break
		}
		eq += i
		start := eq
		for start > 0 && isNameByte(b[start-1]) {
			start--
		}
		boundary := start == 0 || b[start-1] == '&' || b[start-1] == '?' || b[start-1] == ' ' || b[start-1] == '\n'
		n, lookalike := masked(b[eq+1:])
		if n == 0 {
			n = httphead.QueryMasked(b[eq+1:])
		}
		if n > 0 {
			// Masked already: its words hold a space, where a field's
			// value would end, and masking them again would garble them.
			i = eq + 1 + n
			continue
		}
		// A value that only looks masked runs past its spaces, so that
		// none of it stays in the clear.
		end := eq + 1
		for end < len(b) && b[end] != '&' && (b[end] != ' ' || lookalike) && b[end] != '"' && b[end] != '\r' && b[end] != '\n' {
			end++
		}
		stars := len(bytes.Trim(b[eq+1:end], "*")) == 0 // masked already, by a capture ("code=***")
		if boundary && end > eq+1 && !stars && secretField(b, start, eq) {
			out = append(out, [2]int{eq + 1, end})
		}
		i = eq + 1
	}
	return out
}

// masked is the length of the value mask wrote at the start of b
// (maskLabel(n), then '*' up to n bytes in all), or 0 when b does not
// start with exactly that; words says whether b starts with the mask's
// words all the same: a value that only looks masked is masked.
func masked(b []byte) (n int, words bool) {
	rest, words := bytes.CutPrefix(b, []byte(maskWords))
	if !words {
		return 0, false
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	n, err := strconv.Atoi(string(rest[:digits]))
	label := maskLabel(n)
	if err != nil || n < len(label) || n > len(b) || !bytes.HasPrefix(b, []byte(label)) ||
		len(bytes.TrimLeft(b[len(label):n], "*")) > 0 {
		return 0, true
	}
	return n, true
}

// secretField reports whether the form field or query parameter whose
// name is b[start:eq] holds a credential: a secret name (SecretKey)
// anywhere, and, in a query or a form body (the name starts b or follows
// '?' or '&'), a secret parameter as the captured URLs mask them
// (httphead.SecretParam: "key", "sig", "code", …).
func secretField(b []byte, start, eq int) bool {
	if secretName(b[start:eq]) {
		return true
	}
	query := start == 0 || b[start-1] == '?' || b[start-1] == '&'
	return query && eq-start <= 64 && httphead.SecretParam(string(b[start:eq]))
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}
