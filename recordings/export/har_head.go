package export

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/proto/httphead"
)

// An HTTP head as mcpscope captures it (httphead.HTTPRequestHead,
// httphead.HTTPResponseHead): a start line, "Name: Value" lines, each ended
// by CR LF, and an empty line.

// requestHead is the parsed head of a request.
type requestHead struct {
	method, target, version string
	headers                 []httphead.HTTPHeader
}

// responseHead is the parsed head of a response.
type responseHead struct {
	version    string
	status     int
	statusText string
	headers    []httphead.HTTPHeader
}

// startLine returns the start line of a head, without its line end, and
// what follows it.
func startLine(raw []byte) (start string, rest []byte) {
	line, rest, _ := bytes.Cut(raw, []byte("\r\n"))
	if len(line) > maxStartLine {
		return "", nil // no head's start line is this long
	}
	return string(line), rest
}

// maxStartLine bounds the start line of a head read back.
const maxStartLine = 64 << 10

// headerLines splits what follows a start line into its header lines,
// without their line ends and without the empty line that ends the head.
// A head cut short keeps the lines it has.
func headerLines(rest []byte) []string {
	if i := bytes.Index(rest, []byte("\r\n\r\n")); i >= 0 {
		rest = rest[:i]
	} else if bytes.HasPrefix(rest, []byte("\r\n")) {
		return nil
	}
	return strings.Split(string(rest), "\r\n")
}

// headerList parses header lines "Name: Value" (a line without ": "
// splits at its first colon, or is a name without a value).
func headerList(lines []string) []httphead.HTTPHeader {
	out := make([]httphead.HTTPHeader, 0, len(lines))
	for _, l := range lines {
		if l == "" {
			continue
		}
		name, value, ok := strings.Cut(l, ": ")
		if !ok {
			name, value, _ = strings.Cut(l, ":")
		}
		out = append(out, httphead.HTTPHeader{Name: name, Value: value})
	}
	return out
}

// parseRequestHead parses "METHOD TARGET VERSION" and the headers. ok is
// false when the start line is not one.
func parseRequestHead(raw []byte) (h requestHead, ok bool) {
	start, after := startLine(raw)
	method, rest, ok1 := strings.Cut(start, " ")
	i := strings.LastIndexByte(rest, ' ')
	if !ok1 || i < 0 || method == "" || !strings.HasPrefix(rest[i+1:], "HTTP/") {
		return h, false
	}
	return requestHead{method: method, target: rest[:i], version: rest[i+1:], headers: headerList(headerLines(after))}, true
}

// parseResponseHead parses "VERSION STATUS [REASON]" and the headers. ok
// is false when the start line is not one.
func parseResponseHead(raw []byte) (h responseHead, ok bool) {
	start, after := startLine(raw)
	version, rest, _ := strings.Cut(start, " ")
	code, reason, _ := strings.Cut(rest, " ")
	status, err := strconv.Atoi(code)
	if !strings.HasPrefix(version, "HTTP/") || err != nil || status < 0 || status > 999 {
		return h, false
	}
	return responseHead{version: version, status: status, statusText: reason, headers: headerList(headerLines(after))}, true
}

// headerValue returns the value of the first header named name (case
// insensitive), or "".
func headerValue(headers []httphead.HTTPHeader, name string) string {
	for _, h := range headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}
