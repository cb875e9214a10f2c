// Package atomicfile replaces a file's contents all at once: a reader, or
// a crash, sees the old file or the new one, never half of one.
package atomicfile

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, mode, check)
}

// WriteFunc is Write with the contents written by write, streamed into
// the file rather than held in memory first. An error of write leaves
// path as it is (but for a fifo or a device, written in place).
func WriteFunc(path string, write func(io.Writer) error, mode fs.FileMode, check func() error) error {
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
		return writeInPlace(target, write, check)
	case err == nil:
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return replace(target, write, mode, err == nil, check)
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
func writeInPlace(path string, write func(io.Writer) error, check func() error) error {
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	werr := write(bw)
	return errors.Join(werr, bw.Flush(), f.Close())
}

// replace writes the contents to a temporary file beside path and renames it over
// path. The temporary file is created with mode, so the umask applies to a
// new file; existing says mode is an existing file's, set exactly.
func replace(path string, write func(io.Writer) error, mode fs.FileMode, existing bool, check func() error) error {
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
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
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
