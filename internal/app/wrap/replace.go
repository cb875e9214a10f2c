package wrap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// errRaced says the config file changed between reading it and writing it
// (a host rewrote it meanwhile): nothing was written.
var errRaced = errors.New("the file changed while mcpscope was rewriting it")

// beforeRecheck runs just before replaceConfig reads the file again (a
// test writes to it there, as a host would).
var beforeRecheck = func(path string) {}

// replaceConfig writes data over the config file path, keeping mode, only
// if the file still holds was (nil: only if there is no file): it is read
// again just before the rename, so that a host's write since is not lost.
// A file that changed is errRaced and left as it is. data larger than
// mcpconfig reads is refused.
func replaceConfig(path string, was, data []byte, mode fs.FileMode) error {
	if len(data) > mcpconfig.MaxFileSize {
		return fmt.Errorf("%s would be %d bytes, larger than the %d mcpscope reads, so it is left as it is", path, len(data), mcpconfig.MaxFileSize)
	}
	return writeAtomic(path, data, mode, func() error {
		beforeRecheck(path)
		now, err := readBounded(path)
		switch {
		case was == nil && errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		case err == nil && was != nil && bytes.Equal(now, was):
			return nil
		}
		return fmt.Errorf("%s: %w", path, errRaced)
	})
}

// readBounded reads path, or its first MaxFileSize+1 bytes.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, mcpconfig.MaxFileSize+1))
}
