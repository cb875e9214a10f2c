package httpconf

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"syscall"
)

// UnixScheme is the URL scheme of an HTTP server on a Unix domain socket.
const UnixScheme = "unix"

// UnixHost is the Host every request over a Unix socket carries: the
// socket, not a name, says where the server is.
const UnixHost = "localhost"

// UnixDefaultPath is the request path of a unix:// URL without a fragment:
// "/", as VS Code sends, so that a URL copied from its configuration
// reaches the same endpoint in both.
const UnixDefaultPath = "/"

// maxSocketPath is the longest socket path Linux accepts (sun_path holds
// 108 bytes with the NUL); macOS holds 104.
const maxSocketPath = 107

// UnixEndpoint is an HTTP endpoint on a Unix domain socket, as VS Code
// names one: unix:///path/to.sock#/mcp is the socket /path/to.sock and the
// request path /mcp. unix://@name is the Linux abstract socket "name".
type UnixEndpoint struct {
	// Socket is the socket's path (absolute), or "@name" for an abstract
	// socket.
	Socket string
	// Request is the URL the requests go to: http://localhost plus the
	// URL's fragment (default "/").
	Request *url.URL
}

// IsUnix reports whether u is a unix:// URL.
func IsUnix(u *url.URL) bool {
	return u != nil && strings.EqualFold(u.Scheme, UnixScheme)
}

// ParseUnix reads a unix:// URL: the socket path is the URL's path, the
// request path its fragment. It refuses a host (a relative path written
// unix://dir/x.sock), a query outside the fragment and a path too long
// for a socket.
func ParseUnix(u *url.URL) (UnixEndpoint, error) {
	if !IsUnix(u) {
		return UnixEndpoint{}, fmt.Errorf("%s is not a unix:// URL", u.Redacted())
	}
	socket, err := socketOf(u)
	if err != nil {
		return UnixEndpoint{}, err
	}
	if u.RawQuery != "" {
		return UnixEndpoint{}, fmt.Errorf("the unix:// URL %s has a query outside its fragment: the request's path and query go after '#', as in unix://%s#/mcp?%s", u.Redacted(), u.EscapedPath(), u.RawQuery)
	}
	// The fragment as written: decoding it first would turn an escaped
	// "&", "=", "#" or "/" into a separator of the request's URL.
	frag := u.RawFragment
	if frag == "" {
		frag = u.EscapedFragment()
	}
	if frag == "" {
		frag = UnixDefaultPath
	}
	if !strings.HasPrefix(frag, "/") {
		return UnixEndpoint{}, fmt.Errorf("the request path %q after '#' must begin with '/', as in unix://%s#/mcp", frag, u.EscapedPath())
	}
	req, err := url.Parse("http://" + UnixHost + frag)
	if err != nil {
		return UnixEndpoint{}, fmt.Errorf("the request path %q after '#' is not a valid path: %w", frag, err)
	}
	req.Fragment, req.RawFragment = "", "" // a second '#' is the request's own fragment, never sent
	return UnixEndpoint{Socket: socket, Request: req}, nil
}

// abstractName is the rule of an abstract socket's name in a unix:// URL:
// what a URL's host holds unescaped and unchanged.
var abstractName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// CheckAbstractName checks the name of a Linux abstract socket (the part
// after "@"): 1 or more letters, digits, "-", "." and "_", short enough
// for a socket address, so that unix://@name#/mcp names it.
func CheckAbstractName(name string) error {
	switch {
	case !abstractName.MatchString(name):
		return fmt.Errorf("the abstract socket name %q must be 1 or more of letters, digits, '-', '.' and '_', so that unix://@NAME#/mcp can name it", name)
	case len(name)+1 > maxSocketPath:
		return fmt.Errorf("the abstract socket name is %d bytes; a Unix socket's address holds at most %d", len(name), maxSocketPath-1)
	}
	return nil
}

// socketOf is the socket path of a unix:// URL.
func socketOf(u *url.URL) (string, error) {
	if u.User != nil && u.User.String() == "" && u.Host != "" && u.Path == "" {
		// unix://@name: Go's URL parser reads "@" as an empty user.
		if err := CheckAbstractName(u.Host); err != nil {
			return "", err
		}
		return "@" + u.Host, nil
	}
	if u.User != nil || u.Host != "" {
		return "", fmt.Errorf("the unix:// URL %s names a host; the socket path must be absolute: unix:///path/to.sock (three slashes)", u.Redacted())
	}
	switch {
	case u.Path == "":
		return "", fmt.Errorf("the unix:// URL %s names no socket: give its absolute path, as in unix:///run/server.sock#/mcp", u.Redacted())
	case !strings.HasPrefix(u.Path, "/"):
		return "", fmt.Errorf("the socket path %q is relative; give it absolute: unix:///path/to.sock", u.Path)
	case len(u.Path) > maxSocketPath:
		return "", fmt.Errorf("the socket path is %d bytes; a Unix socket's path holds at most %d", len(u.Path), maxSocketPath)
	}
	return u.Path, nil
}

// Dial connects to the endpoint's socket, whatever address the HTTP
// client asks for: it is the DialContext of an http.Transport.
func (e UnixEndpoint) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", e.Socket)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &UnixDialError{Socket: e.Socket, Err: dialReason(e.Socket, err)}
	}
	return c, nil
}

// UnixDialError says the socket did not take the connection: no such
// file, not a socket, permission denied, nothing listening.
type UnixDialError struct {
	Socket string
	Err    error
}

func (e *UnixDialError) Error() string {
	return fmt.Sprintf("connecting to the Unix socket %s: %v", e.Socket, e.Err)
}

// Unwrap returns why the connection failed.
func (e *UnixDialError) Unwrap() error { return e.Err }

// Reasons a Unix socket does not take a connection, as SocketProblem and
// Dial word them.
var (
	ErrNoSocketFile = errors.New("no such file (is the server running, and is the path right?)")
	ErrNotSocket    = errors.New("the file is not a socket")
	ErrSocketDenied = errors.New("permission denied (the socket's mode, or a directory on its path, does not let this user connect)")
	ErrNoListener   = errors.New("nothing listens on it (a socket file left by a server that stopped?)")
)

// SocketProblem looks at the file at socket before a connection is tried:
// it must exist, be a socket and be writable by this user (connecting
// needs write permission). It returns what it found ("a socket, mode
// srw-------") or the problem, wrapping one of ErrNoSocketFile,
// ErrNotSocket, ErrSocketDenied. An abstract socket has no file: nothing
// to look at.
func SocketProblem(socket string) (string, error) {
	if strings.HasPrefix(socket, "@") {
		return "an abstract socket (no file)", nil
	}
	fi, err := os.Stat(socket)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", ErrNoSocketFile
	case errors.Is(err, fs.ErrPermission):
		return "", fmt.Errorf("%w: %w", ErrSocketDenied, err)
	case err != nil:
		return "", err
	case fi.IsDir():
		return "", fmt.Errorf("%w: it is a directory", ErrNotSocket)
	case fi.Mode().Type() != fs.ModeSocket:
		return "", fmt.Errorf("%w: it is a %s", ErrNotSocket, kindOf(fi.Mode()))
	}
	if err := writable(socket); err != nil {
		return "", fmt.Errorf("%w: %w", ErrSocketDenied, err)
	}
	return fmt.Sprintf("a socket, mode %#o", fi.Mode().Perm()), nil
}

// kindOf names the type of a file that is not a socket.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "file of mode " + m.String()
}

// dialReason words a failed connection to socket: what the file says,
// else what connect said.
func dialReason(socket string, err error) error {
	if _, problem := SocketProblem(socket); problem != nil {
		return problem
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w: %w", ErrNoListener, err)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return fmt.Errorf("%w: %w", ErrSocketDenied, err)
	case errors.Is(err, syscall.ENOENT):
		return fmt.Errorf("%w: %w", ErrNoSocketFile, err)
	}
	return err
}
