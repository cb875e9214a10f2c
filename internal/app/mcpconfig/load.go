package mcpconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxFileSize is the largest config file read; a bigger one is an error.
const MaxFileSize = 8 << 20

// Load reads every candidate that exists. A file that cannot be read or
// parsed, or an entry that does not decode, is an error beside the servers
// of the other files; a missing file is skipped.
func Load(cands []Candidate, cwd string) ([]Server, []error) {
	var servers []Server
	var errs []error
	for _, c := range cands {
		data, err := readFile(c.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, &FileError{Path: c.Path, Err: err})
			continue
		}
		s, e := parseFile(c, data, cwd)
		servers = append(servers, s...)
		errs = append(errs, e...)
	}
	return servers, errs
}

// LoadFile reads the one file given with --config, its format guessed from
// its name; a missing file is an error.
func LoadFile(path, cwd string) ([]Server, []error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, []error{fmt.Errorf("--config %s: %w", path, err)}
	}
	data, err := readFile(path)
	if err != nil {
		return nil, []error{&FileError{Path: path, Err: err}}
	}
	ws := filepath.Dir(abs)
	if b := filepath.Base(ws); b == ".vscode" || b == ".cursor" {
		ws = filepath.Dir(ws)
	}
	return parseFile(Candidate{Path: path, Format: FormatOf(abs), Workspace: ws}, data, cwd)
}

// byteOrderMark is the UTF-8 byte order mark some Windows editors write
// first in a file.
var byteOrderMark = []byte("\uFEFF")

// readFile reads path, refusing more than MaxFileSize bytes, without the
// byte order mark it may start with.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", MaxFileSize)
	}
	return bytes.TrimPrefix(data, byteOrderMark), nil
}

// Parse reads the servers of data, the whole bytes of the config file c (a
// byte order mark allowed), as Load does.
func Parse(c Candidate, data []byte, cwd string) ([]Server, []error) {
	return parseFile(c, bytes.TrimPrefix(data, byteOrderMark), cwd)
}
