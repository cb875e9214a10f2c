package httphead

import (
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"

	protocore "github.com/mcpscope/mcpscope/proto"
)

// The head of an HTTP/1.1 message (RFC 9112): a start line, header field
// lines "Name: Value", each ended by CR LF, and an empty line. mcpscope
// captures every HTTP exchange in this form, for HTTP/2 as well (whose
// binary frames carry the same fields), so the hex view can label it.

// HTTPHeader is one header line as sent or received.
type HTTPHeader struct{ Name, Value string }

// HTTPRequestHead renders the head of a request, "METHOD TARGET HTTP/1.1",
// its header lines and the empty line, and annotates it. The fields cover
// every byte, in order: "method", "target" and "version" (header kind),
// each with the space or the CR LF after it; one header field per header
// line, named by the header's name, whose Value is the header's value and
// which covers the whole line with its CR LF; the empty line, "end of head"
// (delimiter).
//
// A CR, LF or NUL inside a method, target, name or value would forge a line
// of its own: each is written as a space instead, as RFC 9110 §5.5 lets a
// recipient do with a field value (net/http never sends such a byte; this
// keeps a hostile value on its line). The rest is rendered as given.
func HTTPRequestHead(method, target string, headers []HTTPHeader) ([]byte, []protocore.Field) {
	h := newHeadWriter(len(method)+len(target)+len("  HTTP/1.1\r\n"), 3, headers)
	h.token("method", method, " ")
	h.token("target", target, " ")
	h.token("version", "HTTP/1.1", "\r\n")
	return h.finish(headers)
}

// HTTPResponseHead renders the head of a response, "PROTO STATUS REASON"
// (proto like "HTTP/1.1" or "HTTP/2.0", the reason from
// net/http.StatusText, none for a status it does not know), its header
// lines and the empty line, annotated as HTTPRequestHead does: "version",
// "status" (Value "200 OK"), the header lines, "end of head".
func HTTPResponseHead(proto string, status int, headers []HTTPHeader) ([]byte, []protocore.Field) {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], int64(status), 10)
	if reason := http.StatusText(status); reason != "" {
		b = append(append(b, ' '), reason...)
	}
	value := string(b)
	h := newHeadWriter(len(proto)+len(value)+len(" \r\n"), 2, headers)
	h.token("version", proto, " ")
	h.token("status", value, "\r\n")
	return h.finish(headers)
}

// HeadersOf turns an http.Header into header lines in a stable order:
// sorted by canonical name (a key stored twice in different cases sorts by
// the key itself next), each key's values in their order. Name is the key
// as the map holds it: net/http writes it so on HTTP/1.
func HeadersOf(h http.Header) []HTTPHeader {
	type key struct{ canonical, key string }
	var small [16]key
	keys := small[:0]
	n := 0
	for k, vs := range h {
		keys = append(keys, key{textproto.CanonicalMIMEHeaderKey(k), k})
		n += len(vs)
	}
	slices.SortFunc(keys, func(a, b key) int { return compareKeys(a.canonical, a.key, b.canonical, b.key) })
	out := make([]HTTPHeader, 0, n)
	for _, k := range keys {
		for _, v := range h[k.key] {
			out = append(out, HTTPHeader{Name: k.key, Value: v})
		}
	}
	return out
}

// compareKeys orders two header keys as HeadersOf does, each given with
// its canonical form: by canonical form, then by the key itself.
func compareKeys(aCanonical, a, bCanonical, b string) int {
	if c := strings.Compare(aCanonical, bCanonical); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// SetHeaderLine returns the header lines of HeadersOf(h) turned into
// those of h after h.Set(name, value), without a copy of h: the lines of
// key name (canonicalized, as Set does) are dropped and one line of value
// takes its place in HeadersOf's order. It works in lines itself; value
// goes as it is, not redacted.
func SetHeaderLine(lines []HTTPHeader, name, value string) []HTTPHeader {
	name = textproto.CanonicalMIMEHeaderKey(name)
	kept := lines[:0]
	at := -1
	for _, hd := range lines {
		if hd.Name == name {
			continue
		}
		if at < 0 && compareKeys(textproto.CanonicalMIMEHeaderKey(hd.Name), hd.Name, name, name) > 0 {
			at = len(kept)
		}
		kept = append(kept, hd)
	}
	if at < 0 {
		at = len(kept)
	}
	return slices.Insert(kept, at, HTTPHeader{Name: name, Value: value})
}

// headWriter renders a head and its annotations.
type headWriter struct {
	b      []byte
	fields []protocore.Field
}

// newHeadWriter returns a headWriter with room for a start line of about
// line bytes in tokens fields, then the header lines and the empty line.
func newHeadWriter(line, tokens int, headers []HTTPHeader) headWriter {
	size := line + len("\r\n")
	for _, hd := range headers {
		size += len(hd.Name) + len(": ") + len(hd.Value) + len("\r\n")
	}
	return headWriter{b: make([]byte, 0, size), fields: make([]protocore.Field, 0, tokens+len(headers)+1)}
}

// token appends value and sep as one header field named name.
func (h *headWriter) token(name, value, sep string) {
	value = oneLine(value)
	at := len(h.b)
	h.b = append(append(h.b, value...), sep...)
	h.fields = append(h.fields, protocore.Field{Offset: at, Len: len(h.b) - at, Name: name, Value: value, Kind: protocore.FieldHeader})
}

// finish appends the header lines and the empty line, and returns the head.
func (h *headWriter) finish(headers []HTTPHeader) ([]byte, []protocore.Field) {
	for _, hd := range headers {
		name, value := oneLine(hd.Name), oneLine(hd.Value)
		at := len(h.b)
		h.b = append(append(append(append(h.b, name...), ": "...), value...), "\r\n"...)
		h.fields = append(h.fields, protocore.Field{Offset: at, Len: len(h.b) - at, Name: name, Value: value, Kind: protocore.FieldHeader})
	}
	h.fields = append(h.fields, protocore.Field{Offset: len(h.b), Len: 2, Name: "end of head", Value: "CR LF", Kind: protocore.FieldDelimiter})
	return append(h.b, "\r\n"...), h.fields
}

// oneLine is s with each CR, LF and NUL written as a space.
func oneLine(s string) string {
	i := 0
	for i < len(s) && s[i] != '\r' && s[i] != '\n' && s[i] != 0 {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c == '\r' || c == '\n' || c == 0 {
			b[i] = ' '
		}
	}
	return string(b)
}
