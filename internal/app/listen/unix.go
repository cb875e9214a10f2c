package listen

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"
)

// staleProbe bounds the connection Unix tries to a socket file already
// there, to learn whether a server still listens on it.
const staleProbe = time.Second

// Unix listens on a Unix domain socket at path, which only this user may
// connect to (mode 0600). A socket file already there is removed when
// nothing listens on it (a server that stopped without removing it); a
// socket a server still listens on, or a file that is not a socket, is
// never touched: Unix refuses. Closing the listener removes the socket.
// A path "@name" is a Linux abstract socket: it has no file, and no mode
// keeps other users of the network namespace from connecting.
func Unix(path string) (net.Listener, error) {
	if strings.HasPrefix(path, "@") {
		ln, err := net.Listen("unix", path)
		if err != nil {
			return nil, fmt.Errorf("listening on the abstract Unix socket %s: %w", path, err)
		}
		return ln, nil
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	ln, err := listenPrivate(path)
	if err != nil {
		return nil, fmt.Errorf("listening on the Unix socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("closing the Unix socket %s to other users: %w", path, err)
	}
	return ln, nil
}

// removeStale removes the socket file at path when nothing listens on it.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("looking at %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%s exists and is not a socket; mcpscope removes only a stale socket: choose another path", path)
	}
	if c, err := net.DialTimeout("unix", path, staleProbe); err == nil {
		_ = c.Close()
		return fmt.Errorf("a server listens on the Unix socket %s already", path)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("removing the stale socket %s: %w", path, err)
	}
	return nil
}
