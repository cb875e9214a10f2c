package capture

import (
	"net/http"
	"strconv"
	"strings"
)

// SessionConn names the connection whose requests share one id space.
// Over HTTP each exchange is a connection of its own ("http POST 3",
// "http GET 1", with "#gen" after a reconnect, as the HTTP transport
// names them), but a request, its cancellation and its answer, or a
// server's request and the client's answer to it, travel on different
// exchanges of the same session: they all belong to "http" ("http#gen").
func SessionConn(conn string) string {
	name, gen := conn, ""
	if i := strings.LastIndexByte(conn, '#'); i >= 0 {
		name, gen = conn[:i], conn[i:]
	}
	words := strings.Split(name, " ")
	if len(words) < 3 {
		return conn
	}
	method, n := words[len(words)-2], words[len(words)-1]
	if _, err := strconv.ParseUint(n, 10, 64); err != nil || !isHTTPMethod(method) {
		return conn
	}
	return strings.Join(words[:len(words)-2], " ") + gen
}

// isHTTPMethod reports whether s is a method the HTTP transports name
// their exchanges by.
func isHTTPMethod(s string) bool {
	switch s {
	case http.MethodGet, http.MethodPost, http.MethodDelete:
		return true
	}
	return false
}
