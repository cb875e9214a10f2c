package proto

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// HTTPHeader is one header line as sent or received.
type HTTPHeader struct{ Name, Value string }

// HTTPRequestHead renders a request line and headers and annotates them.
func HTTPRequestHead(method, target string, headers []HTTPHeader) ([]byte, []Field) {
	return httpHead([3]string{method, target, "HTTP/1.1"}, [3]string{"method", "target", "version"}, headers)
}

// HTTPResponseHead renders a status line and headers and annotates them.
func HTTPResponseHead(proto string, status int, headers []HTTPHeader) ([]byte, []Field) {
	st := fmt.Sprintf("%d %s", status, http.StatusText(status))
	return httpHead([3]string{proto, st, ""}, [3]string{"version", "status", ""}, headers)
}

func httpHead(start, names [3]string, headers []HTTPHeader) ([]byte, []Field) {
	var b []byte
	var fs []Field
	for i, s := range start {
		if names[i] == "" {
			continue
		}
		if i > 0 {
			b = append(b, ' ')
		}
		fs = append(fs, Field{Offset: len(b), Len: len(s), Name: names[i], Value: s, Kind: FieldHeader})
		b = append(b, s...)
	}
	b = append(b, "\r\n"...)
	for _, h := range headers {
		line := h.Name + ": " + strings.NewReplacer("\r", " ", "\n", " ").Replace(h.Value)
		fs = append(fs, Field{Offset: len(b), Len: len(line), Name: h.Name, Value: h.Value, Kind: FieldHeader})
		b = append(b, line...)
		b = append(b, "\r\n"...)
	}
	fs = append(fs, Field{Offset: len(b), Len: 2, Name: "end of head", Kind: FieldDelimiter})
	b = append(b, "\r\n"...)
	return b, fs
}

// HeadersOf turns an http.Header into sorted HTTPHeaders.
func HeadersOf(h http.Header) []HTTPHeader {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []HTTPHeader
	for _, k := range keys {
		for _, v := range h[k] {
			out = append(out, HTTPHeader{k, v})
		}
	}
	return out
}

// SecretHeader reports whether a header carries a credential.
func SecretHeader(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "authorization", "proxy-authorization", "cookie", "set-cookie":
		return true
	}
	return strings.Contains(n, "token") || strings.Contains(n, "secret") || strings.Contains(n, "api-key") || strings.Contains(n, "apikey")
}

// RedactHeaders returns a copy with each secret header's value redacted.
func RedactHeaders(h []HTTPHeader) []HTTPHeader {
	out := make([]HTTPHeader, len(h))
	for i, x := range h {
		if SecretHeader(x.Name) {
			x.Value = fmt.Sprintf("[redacted %d bytes]", len(x.Value))
		}
		out[i] = x
	}
	return out
}
