package recordings

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// secretKeys are JSON member names whose string values are credentials
// in any body (OAuth token responses and requests, basic logins).
var secretKeys = []string{
	"access_token", "refresh_token", "id_token", "client_secret", "code_verifier",
	"client_assertion", "assertion", "password", "api_key", "apikey", "authorization", "cookie",
}

// secretKeyParts mark a credential anywhere in a member name.
var secretKeyParts = []string{"secret", "password"}

// secretWords are words, in lower case, one of which every secret name
// holds (every secretKeys entry holds one, and secretName asks for one of
// them at least): bytes that hold none of them, in any case, hold no
// secret member, which spares masking the scans. Form fields are found
// wherever there is an '='.
var secretWords = []string{"token", "secret", "password", "code_verifier", "assertion", "api_key", "apikey", "authorization", "cookie"}

// secretStarts holds the first two letters of secretWords, in either
// case, as bit masks: bit k of first[c] says that start k begins with c,
// bit k of second[c] that c follows its first letter. Two bytes start a
// secret word only where first and second share a bit.
var secretStarts = func() (s struct{ first, second [256]uint32 }) {
	starts := map[string]uint32{}
	for _, w := range secretWords {
		if _, ok := starts[w[:2]]; !ok {
			starts[w[:2]] = 1 << len(starts)
		}
		bit := starts[w[:2]]
		for _, c := range []byte{w[0], w[0] - 'a' + 'A'} {
			s.first[c] |= bit
		}
		for _, c := range []byte{w[1], w[1] - 'a' + 'A'} {
			s.second[c] |= bit
		}
	}
	return s
}()

// mayHoldSecretName reports whether b holds one of secretWords, in any
// case: only then may a member or form field of b have a secret name.
func mayHoldSecretName(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		if secretStarts.first[b[i]]&secretStarts.second[b[i+1]] == 0 {
			continue
		}
		for _, w := range secretWords {
			if i+len(w) <= len(b) && foldAt(b, i, w) {
				return true
			}
		}
	}
	return false
}

// SecretKey reports whether a JSON member or form field named name holds
// a credential: one of secretKeys, a name containing "secret" or
// "password", or one ending in "token" ("sessionToken"; not "token_type"
// nor "maxTokens"). Names compare without regard to case.
func SecretKey(name string) bool { return secretName(name) }

// secretName is SecretKey for a name in a string or in bytes, without
// copying it.
func secretName[T string | []byte](name T) bool {
	if len(name) < 5 || len(name) > 64 { // shorter than "token", or not a credential's name
		return false
	}
	for _, k := range secretKeys {
		if len(k) == len(name) && foldAt(name, 0, k) {
			return true
		}
	}
	for _, p := range secretKeyParts {
		for i := 0; i+len(p) <= len(name); i++ {
			if foldAt(name, i, p) {
				return true
			}
		}
	}
	// "sessionToken", "x-auth-token"; not "token_type" or "maxTokens".
	return foldAt(name, len(name)-5, "token")
}

// foldAt reports whether s holds the lower-case ASCII word w at i, in any
// case.
func foldAt[T string | []byte](s T, i int, w string) bool {
	for j := 0; j < len(w); j++ {
		c := s[i+j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// maskWords start the words a masked value begins with when they fit.
const maskWords = "<redacted "

// HoldsMask reports whether body holds a value masked with words, as mask
// writes it ("<redacted N bytes>"); a value short enough to be masked with
// '*' alone is not told from stars.
func HoldsMask(body []byte) bool { return bytes.Contains(body, []byte(maskWords)) }

// mask overwrites b with "<redacted N bytes>" padded with '*' to len(b),
// or with '*' alone when the words do not fit: the length of every byte
// range, and so every length prefix and annotation, stays true.
func mask(b []byte) {
	label := maskLabel(len(b))
	if len(label) > len(b) {
		label = ""
	}
	n := copy(b, label)
	for i := n; i < len(b); i++ {
		b[i] = '*'
	}
}

// maskLabel is the words mask writes over n bytes when they fit.
func maskLabel(n int) string { return maskWords + strconv.Itoa(n) + " bytes>" }

// redactor masks credentials in a frame's bytes before they are written.
type redactor struct {
	secrets [][]byte        // literal values to mask wherever they appear (--header values)
	headers map[string]bool // header names, in lower case, whose values to mask in header lines
	longest int             // the longest name in headers
}

// newRedactor is the redactor o asks for: nil with NoRedact; otherwise one
// that masks o's secret header values and its literal secrets of 4 bytes
// or more (shorter values would mask ordinary bytes).
func newRedactor(o Options) *redactor {
	if o.NoRedact {
		return nil
	}
	r := &redactor{}
	for _, n := range o.SecretHeaders {
		if r.headers == nil {
			r.headers = map[string]bool{}
		}
		r.headers[strings.ToLower(strings.TrimSpace(n))] = true
	}
	for _, s := range o.Secrets {
		if len(s) >= 4 {
			r.secrets = append(r.secrets, []byte(s))
		}
	}
	return r
}

// redact returns b with its credentials masked: each literal secret
// wherever it appears, and, when b is text that may hold JSON, the string
// value of each JSON member and form field whose name is a secret
// (SecretKey). b itself is never changed: a copy is made
// when something is masked.
func (r *redactor) redact(b []byte, json bool) []byte {
	out := b
	own := func() {
		if &out[0] == &b[0] {
			out = bytes.Clone(b)
		}
	}
	for _, s := range r.secrets {
		for from := 0; len(s) > 0 && len(out) > 0; {
			i := bytes.Index(out[from:], s)
			if i < 0 {
				break
			}
			own()
			mask(out[from+i : from+i+len(s)])
			from += i + len(s)
		}
	}
	for _, v := range r.headerValues(out) {
		own()
		mask(out[v[0]:v[1]])
	}
	if !json {
		return out
	}
	for _, v := range secretRanges(out) {
		own()
		mask(out[v[0]:v[1]])
	}
	return out
}

// secretMembers finds, in bytes that hold JSON somewhere (a line, an SSE
// event, a framed body), the ranges of the string values of members whose
// names are secrets: `"name" : "value"`. It reads quoted strings one after
// another without parsing the document, so framing around the JSON and
// any depth of nesting cost nothing.
func secretMembers(b []byte) [][2]int { return members(b, []byte(`"`), stringEnd) }

// members finds the ranges of the values of `<q>name<q> : <q>value<q>`
// whose names are secrets, q being the quote and end finding the quote
// that closes a string whose contents start at from (or -1).
func members(b, q []byte, end func(b []byte, from int) int) [][2]int {
	var out [][2]int
	for i := 0; i < len(b); {
		open := bytes.Index(b[i:], q)
		if open < 0 {
			break
		}
		start := i + open + len(q)
		nameEnd := end(b, start)
		if nameEnd < 0 {
			break
		}
		i = nameEnd + len(q)
		j := skipSpace(b, i)
		if j >= len(b) || b[j] != ':' {
			continue
		}
		j = skipSpace(b, j+1)
		if !bytes.HasPrefix(b[j:], q) {
			continue
		}
		from := j + len(q)
		valueEnd := end(b, from)
		if valueEnd < 0 {
			// A value cut short (bytes kept, a shortened annotation):
			// what there is of it is masked.
			if from < len(b) && secretName(b[start:nameEnd]) {
				out = append(out, [2]int{from, len(b)})
			}
			break
		}
		if valueEnd > from && secretName(b[start:nameEnd]) {
			out = append(out, [2]int{from, valueEnd})
		}
		i = valueEnd + len(q)
	}
	return out
}

// stringEnd returns the index of the quote that ends the JSON string whose
// contents start at from, or -1.
func stringEnd(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// headerValues finds, in bytes that hold HTTP header lines ("Name: value"
// ending in CRLF or LF), the ranges of the values of the headers named in
// r.headers.
func (r *redactor) headerValues(b []byte) [][2]int {
	if len(r.headers) == 0 {
		return nil
	}
	var out [][2]int
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		ln := b[start:end]
		if colon := bytes.IndexByte(ln, ':'); colon > 0 && r.secretHeader(ln[:colon]) {
			lo := start + colon + 1
			hi := end
			for lo < hi && (b[lo] == ' ' || b[lo] == '\t') {
				lo++
			}
			for hi > lo && (b[hi-1] == '\r' || b[hi-1] == ' ') {
				hi--
			}
			if hi > lo {
				out = append(out, [2]int{lo, hi})
			}
		}
		start = end + 1
	}
	return out
}

// secretHeader reports whether name, around its spaces, names one of
// r.headers in any case (as strings.ToLower folds it); a short ASCII name,
// as every header's is, is folded without a copy.
func (r *redactor) secretHeader(name []byte) bool {
	name = bytes.TrimSpace(name)
	var lower [64]byte
	if len(name) > len(lower) {
		return r.headers[strings.ToLower(string(name))]
	}
	for i, c := range name {
		switch {
		case c >= utf8.RuneSelf:
			return r.headers[strings.ToLower(string(name))]
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return r.headers[string(lower[:len(name)])]
}

// field returns the value of an annotation named name with its
// credentials masked: all of it for a secret header's line; otherwise as
// the frame's bytes are masked (literal secrets, secret JSON members and
// form fields), since a value often copies bytes of the frame (an SSE
// line's data). Lengths stay as they are.
func (r *redactor) field(name, value string) string {
	if value == "" {
		return value
	}
	if len(r.headers) > 0 && r.headers[strings.ToLower(name)] {
		b := []byte(value)
		mask(b)
		return string(b)
	}
	if len(r.secrets) == 0 && !strings.ContainsAny(value, `"=`) {
		return value // no literal secret to look for, no member nor form field to hold one
	}
	return r.text(value)
}

// text returns s with its literal secrets and secret members masked; a
// nil redactor (--no-redact) returns it as it is.
func (r *redactor) text(s string) string {
	if r == nil || s == "" {
		return s
	}
	if b := r.redact([]byte(s), true); string(b) != s {
		return string(b)
	}
	return s
}

// escapedMembers finds the secret members of JSON held as text inside a
// JSON string, as tool results carry it
// ("text":"{\"access_token\":\"…\"}"): the ranges of the values of
// `\"name\" : \"value\"` whose names are secrets.
func escapedMembers(b []byte) [][2]int { return members(b, []byte(`\"`), escapedEnd) }

// escapedEnd returns where the \" that ends an escaped string starting at
// from is, or -1; an escaped backslash (\\) is passed over whole.
func escapedEnd(b []byte, from int) int {
	for i := from; i+1 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] == '"' {
			return i
		}
		i++
	}
	return -1
}

// secretRanges are the byte ranges of b's secret values, unordered: its
// secret members (plain and escaped), skipped when no secret word is in
// b, and its form fields and query parameters, skipped when b holds no =.
func secretRanges(b []byte) (found [][2]int) {
	if mayHoldSecretName(b) {
		found = append(secretMembers(b), escapedMembers(b)...)
	}
	if bytes.IndexByte(b, '=') >= 0 {
		// A form field or query parameter (formValues): its secret names
		// (httphead.SecretParam) are short words, so not in secretWords.
		found = append(found, formValues(b)...)
	}
	return found
}

// SecretRanges are the byte ranges of body that Redact masks, in order,
// none overlapping another.
func SecretRanges(body []byte) [][2]int {
	rs := secretRanges(body)
	slices.SortFunc(rs, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	var out [][2]int
	for _, r := range rs {
		if k := len(out) - 1; k >= 0 && r[0] <= out[k][1] {
			out[k][1] = max(out[k][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// Redact returns body with the values of its secret JSON members and
// form fields masked as a recording masks them by default: what a
// recorded answer is compared with. body itself is never changed; it is
// returned as it is when it holds no secret.
func Redact(body []byte) []byte { return (&redactor{}).redact(body, true) }
