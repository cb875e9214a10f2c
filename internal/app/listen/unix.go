package listen

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// staleProbe bounds the connection Unix tries to a socket file already
// there, to learn whether a server still listens on it.
const staleProbe = time.Second

// Unix listens on a Unix domain socket at path, which only this user may
// connect to (mode 0600). A socket file already there is removed when
// nothing listens on it (a server that stopped without removing it); a
// socket a server still listens on, or a file that is not a socket, is
// never touched: Unix refuses. mcpscope processes take turns (a lock on
// the socket's folder) from the probe to the listen, so two started on
// one stale socket never both listen. Closing the listener removes the
// socket if the file at path is still the one it made.
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
	unlock, err := lockDir(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := removeStale(path); err != nil {
		return nil, err
	}
	ln, err := listenPrivate(path)
	if err != nil {
		return nil, fmt.Errorf("listening on the Unix socket %s: %w", path, err)
	}
	if ul, ok := ln.(*net.UnixListener); ok {
		ul.SetUnlinkOnClose(false) // ownedSocket removes it, if still its own
	}
	fi, err := os.Lstat(path)
	if err == nil {
		err = os.Chmod(path, 0o600)
	}
	if err != nil {
		_ = ln.Close()
		_ = os.Remove(path)
		return nil, fmt.Errorf("closing the Unix socket %s to other users: %w", path, err)
	}
	return &ownedSocket{Listener: ln, path: path, made: fi}, nil
}

// ownedSocket is a listener on a socket file it made: closing it removes
// the file at its path only if that is still the same file, so a server
// that stops never removes the socket another server made in its place.
type ownedSocket struct {
	net.Listener
	path string
	made os.FileInfo
	once sync.Once
}

// Close stops listening and removes the socket file if it is still ours.
func (l *ownedSocket) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() {
		unlock, lerr := lockDir(l.path)
		if lerr != nil {
			return
		}
		defer unlock()
		if now, serr := os.Lstat(l.path); serr == nil && os.SameFile(now, l.made) {
			_ = os.Remove(l.path)
		}
	})
	return err
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
	switch fi.Mode().Type() {
	case fs.ModeSocket:
	case fs.ModeSymlink:
		return fmt.Errorf("%s exists and is a symbolic link; mcpscope removes only a stale socket: choose another path", path)
	default:
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
