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
// before the file is put in place.
func (it Item) Save(path string, replace bool) (int, error) {
	if path == "" {
		return 0, errors.New("no file name")
	}
	data, err := it.Bytes()
	if err != nil {
		return 0, fmt.Errorf("the content's base64 does not decode: %w", err)
	}
	absent := func() error {
		if replace {
			return nil
		}
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: %w", path, ErrExists)
		}
		return nil
	}
	if err := absent(); err != nil {
		return 0, err
	}
	if err := atomicfile.Write(path, data, 0o666, absent); err != nil {
		return 0, err
	}
	return len(data), nil
}

// Exists says whether a file (or anything else) is at path.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
