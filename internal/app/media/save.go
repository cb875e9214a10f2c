package media

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mcpscope/mcpscope/internal/app/atomicfile"
)

// ErrExists is why Save did not write: the file is there and replacing it
// was not asked for.
var ErrExists = fs.ErrExist

// Save writes the item's decoded bytes to path all at once (atomicfile)
// and returns how many it wrote. A file already at path is replaced only
// when replace is set; else the error wraps ErrExists, checked again just
// before the file is put in place. Only a regular file is written or
// replaced (a symbolic link is followed to the file it names): a
// directory, a fifo or a device at path is refused, never opened.
func (it Item) Save(path string, replace bool) (int, error) {
	if path == "" {
		return 0, errors.New("no file name")
	}
	data, err := it.Bytes()
	if err != nil {
		return 0, fmt.Errorf("the content's base64 does not decode: %w", err)
	}
	check := func() error {
		target, err := atomicfile.Resolve(path)
		if err != nil {
			return err
		}
		fi, err := os.Stat(target)
		switch {
		case err == nil && !fi.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file (%s): mcpscope saves only to files", target, fi.Mode().Type())
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if _, err := os.Lstat(path); err == nil && !replace {
			return fmt.Errorf("%s: %w", path, ErrExists)
		}
		return nil
	}
	if err := check(); err != nil {
		return 0, err
	}
	if err := atomicfile.Write(path, data, 0o666, check); err != nil {
		return 0, err
	}
	return len(data), nil
}

// Exists says whether a file (or anything else) is at path.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
