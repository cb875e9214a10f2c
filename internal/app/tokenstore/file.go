package tokenstore

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// FileName is the name of the token file in the store's directory.
const FileName = "tokens.json"

// readFile reads and decodes the token file at path. A file that does not
// exist is an empty store; one that is not a regular file, is open to other
// users, is too large or does not decode is an error naming the file.
func readFile(path string) (fileDoc, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileDoc{Version: fileVersion}, nil
	}
	if err != nil {
		return fileDoc{}, fmt.Errorf("reading the token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileDoc{}, fmt.Errorf("reading the token file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fileDoc{}, &CorruptError{File: path, Problem: "not a regular file"}
	}
	if err := checkPrivate(path, fi.Mode()); err != nil {
		return fileDoc{}, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return fileDoc{}, fmt.Errorf("reading the token file %s: %w", path, err)
	}
	doc, err := decode(data)
	if ce, ok := errors.AsType[*CorruptError](err); ok {
		ce.File = path
	}
	return doc, err
}

// writeFile replaces the token file in dir with doc, atomically: doc goes
// to a 0600 temporary file in dir, which is synced and renamed over the
// old file, so a crash leaves the old file or the new one, never half of
// either. Entries are written in resource and issuer order.
func writeFile(dir string, doc fileDoc) (err error) {
	doc.Version = fileVersion
	slices.SortStableFunc(doc.Entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.Issuer, b.Issuer))
	})
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the token file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+FileName+"-*.tmp")
	if err != nil {
		return fmt.Errorf("writing the token file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("writing the token file: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("writing the token file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing the token file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the token file: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, FileName)); err != nil {
		return fmt.Errorf("writing the token file: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable where the system allows it; a
// failure only loses durability, not the file's integrity, and is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
