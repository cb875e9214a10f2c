// Package atomicfile replaces a file's contents all at once: a reader, or
// a crash, sees the old file or the new one, never half of one.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// maxLinks bounds the symbolic links followed to a file, as the kernel
// bounds them (ELOOP).
const maxLinks = 40

// Write replaces the contents of path with data, and keeps what path is:
//   - a symbolic link is followed, and the file it names is written;
//   - a file that exists and is not a regular file (a fifo, a device) is
//     written to directly, nothing renamed over it;
//   - otherwise data goes into a temporary file in the same directory,
//     synced, then renamed over the file. The new file keeps the mode of
//     the file it replaces; a new file gets mode less the umask, as
//     os.Create does with 0666.
//
// check, when not nil, runs just before the rename (or, for a file written
// directly, before the write); its error leaves path as it is. On any
// error the temporary file is removed.
func Write(path string, data []byte, mode fs.FileMode, check func() error) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		return writeInPlace(target, data, check)
	case err == nil:
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return replace(target, data, mode, err == nil, check)
}

// Resolve follows the symbolic links of path's last element to the file
// they name, which need not exist yet.
func Resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", &fs.PathError{Op: "resolve", Path: path, Err: errors.New("too many levels of symbolic links")}
}

// writeInPlace writes data to a file that is not a regular one.
func writeInPlace(path string, data []byte, check func() error) error {
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	return errors.Join(werr, f.Close())
}

// replace writes data to a temporary file beside path and renames it over
// path. The temporary file is created with mode, so the umask applies to a
// new file; existing says mode is an existing file's, set exactly.
func replace(path string, data []byte, mode fs.FileMode, existing bool, check func() error) error {
	tmp, err := createTemp(path, mode)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if existing {
		if err := tmp.Chmod(mode); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	return nil
}

// createTemp creates a new file beside path with a name of its own,
// opened with perm (less the umask), as os.CreateTemp does with 0600.
func createTemp(path string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	var last error
	for range 100 {
		var r [6]byte
		_, _ = rand.Read(r[:])
		name := filepath.Join(dir, "."+base+".mcpscope-"+hex.EncodeToString(r[:]))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
		last = err
	}
	return nil, last
}
