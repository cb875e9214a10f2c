package doctor

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// unixWalk walks a unix:// target: the URL, the socket file (there, a
// socket, this user may connect), the connection, then HTTP, auth, the
// handshake and tools/list over it, as over TCP. No DNS, TCP or TLS
// step: none of them lies between.
func (w *walk) unixWalk() {
	ep, err := httpconf.ParseUnix(w.cfg.URL)
	w.step("target", func(context.Context) (string, error) {
		if err != nil {
			return "", fail(checklist.Usage, "write it as unix:///absolute/path.sock#/request-path", "%w", err)
		}
		return w.cfg.Transport + " on the Unix socket " + ep.Socket + ", request path " + ep.Request.RequestURI(), nil
	})
	w.unix = &ep
	w.step("socket", func(context.Context) (string, error) {
		found, err := httpconf.SocketProblem(ep.Socket)
		if err != nil {
			return "", fail(checklist.Connection, socketFix(err), "%s: %w", ep.Socket, err)
		}
		return ep.Socket + ": " + found, nil
	})
	var conn net.Conn
	w.step("connect", func(ctx context.Context) (string, error) {
		c, err := ep.Dial(ctx, "", "")
		if err != nil {
			return "", fail(checklist.Connection, socketFix(err), "%w", err)
		}
		conn = c
		return "connected to " + ep.Socket, nil
	})
	if conn != nil {
		defer conn.Close()
	}
	w.httpLayer(conn)
	w.session()
}

// socketFix is the fix of a socket that does not take a connection.
func socketFix(err error) string {
	switch {
	case errors.Is(err, httpconf.ErrNoSocketFile):
		return "start the server, or check the socket's path in the URL"
	case errors.Is(err, httpconf.ErrNotSocket):
		return "the path names a file that is not a socket: check the URL's path (the request path goes after '#')"
	case errors.Is(err, httpconf.ErrSocketDenied):
		return "connect as the user that owns the socket, or have the server open its mode (and its directory's) to this user"
	case errors.Is(err, httpconf.ErrNoListener):
		return "the server has stopped, or closed its socket: start it again"
	}
	return "check that the server listens on this socket"
}

// unixNotFoundFix replaces the fix of a 404 on a Unix socket: the request
// path is the URL's fragment.
const unixNotFoundFix = "the request path is the part after '#' (\"/\" without one): servers often answer at /mcp, as in unix:///path.sock#/mcp"

// unixAuthFix is the fix of a 401 on a Unix socket, where no OAuth flow
// runs.
const unixAuthFix = "the server needs credentials; OAuth does not run over a Unix socket: pass a token with --header 'Authorization: Bearer TOKEN'"

// dialUnix has tr reach every address through the Unix socket of a
// unix:// target; other targets keep tr as it is.
func (w *walk) dialUnix(tr *http.Transport) {
	if w.unix != nil {
		tr.Proxy, tr.DialContext = nil, w.unix.Dial
	}
}
