package live

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proxy"
)

// Entry describes a live session: what its sidecar says, and its socket.
type Entry struct {
	Name      string    `json:"name"`
	PID       int       `json:"pid"`
	Target    string    `json:"target"`
	Transport string    `json:"transport"`
	Started   time.Time `json:"started"`
	Socket    string    `json:"-"` // beside the sidecar, never read from it
	Recording string    `json:"recording,omitempty"`
}

// Sidecars and sockets are named NAME.PID.RANDOM with these suffixes.
const (
	sidecarExt = ".json"
	socketExt  = ".sock"
	maxSidecar = 64 << 10
)

// NextPoll is how often Next looks for a new session.
const NextPoll = 100 * time.Millisecond

// maxSocketPath is the longest socket path every Unix takes (macOS's
// sun_path is 104 bytes with its NUL; Linux's 108).
const maxSocketPath = 103

// stem is a fresh path, in dir and without its suffix, for a session's
// socket and sidecar: its name (cut when the socket's path would be too
// long; the sidecar keeps it whole), the pid and a random part, so that
// two proxies of one NAME, even in one process, both publish.
func stem(dir, name string) (string, error) {
	var r [4]byte
	_, _ = rand.Read(r[:])
	tail := "." + strconv.Itoa(os.Getpid()) + "." + hex.EncodeToString(r[:])
	room := maxSocketPath - len(dir) - 1 - len(tail) - len(socketExt)
	if room < 1 {
		return "", fmt.Errorf("the path of %s is too long for a Unix socket in it", dir)
	}
	return filepath.Join(dir, name[:min(len(name), room)]+tail), nil
}

// writeSidecar writes e beside its socket, atomically and readable by the
// user only.
func writeSidecar(path string, e Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sidecar-*")
	if err != nil {
		return fmt.Errorf("writing the session's sidecar: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := cmp.Or(werr, cerr, os.Chmod(tmp.Name(), 0o600), os.Rename(tmp.Name(), path)); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing the session's sidecar: %w", err)
	}
	return nil
}

// readSidecar reads the sidecar at path.
func readSidecar(path string) (Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSidecar+1))
	if err != nil {
		return Entry{}, err
	}
	if len(b) > maxSidecar {
		return Entry{}, fmt.Errorf("%s is longer than %d bytes", path, maxSidecar)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return Entry{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := proxy.CheckName(e.Name); err != nil {
		return Entry{}, fmt.Errorf("%s: %w", path, err)
	}
	e.Socket = strings.TrimSuffix(path, sidecarExt) + socketExt
	return e, nil
}

// List returns the live sessions, newest first. A sidecar whose proxy is
// gone (its pid runs no more, or its socket is missing) is removed with
// its socket and left out; one that cannot be read is left out.
func List() ([]Entry, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return listIn(dir)
}

func listIn(dir string) ([]Entry, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*"+sidecarExt))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, p := range paths {
		e, err := readSidecar(p)
		if err != nil {
			continue
		}
		if _, serr := os.Lstat(e.Socket); !alive(e.PID) || errors.Is(serr, os.ErrNotExist) {
			_ = os.Remove(e.Socket)
			_ = os.Remove(p)
			continue
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int {
		return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.Socket, a.Socket))
	})
	return out, nil
}

// Named returns the live sessions called name, newest first.
func Named(name string) ([]Entry, error) {
	all, err := List()
	return slices.DeleteFunc(all, func(e Entry) bool { return e.Name != name }), err
}

// Next waits for the first session called name that started after after
// (the host's next session of the same server) and returns it; ctx bounds
// the wait.
func Next(ctx context.Context, name string, after time.Time) (Entry, error) {
	t := time.NewTicker(NextPoll)
	defer t.Stop()
	for {
		all, err := Named(name)
		if err != nil {
			return Entry{}, err
		}
		for i := len(all) - 1; i >= 0; i-- { // oldest first
			if all[i].Started.After(after) {
				return all[i], nil
			}
		}
		select {
		case <-ctx.Done():
			return Entry{}, context.Cause(ctx)
		case <-t.C:
		}
	}
}
