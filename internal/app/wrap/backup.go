package wrap

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/atomicfile"
	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/recordings"
)

// Backup is what wrap keeps of a config file it changed: the file's bytes
// before and after, and where the entry was.
type Backup struct {
	// Path is the config file (absolute, symbolic links resolved).
	Path string `json:"path"`
	// Name is the entry's name; Host the format of the file.
	Name string           `json:"name"`
	Host mcpconfig.Format `json:"host"`
	// Project is the ~/.claude.json project whose entry it is ("" for
	// the file's own list).
	Project string `json:"project,omitempty"`
	// Session is the name the proxy's session goes by (attach NAME).
	Session string    `json:"session"`
	Time    time.Time `json:"time"`
	// Original and Wrapped are the whole file before and after wrap.
	Original []byte `json:"original"`
	Wrapped  []byte `json:"wrapped"`
	// OriginalEntry and WrappedEntry are the entry's value before and
	// after wrap, to restore it alone in a file that changed since.
	OriginalEntry []byte `json:"originalEntry"`
	WrappedEntry  []byte `json:"wrappedEntry"`

	// file is where the backup itself is kept.
	file string
}

// File is where the backup is kept.
func (b *Backup) File() string { return b.file }

// maxBackup bounds a backup file read back: two copies of the largest
// config file, in base64, and room for the rest.
const maxBackup = 4*mcpconfig.MaxFileSize + 1<<20

// Dir returns the directory backups are kept in: "wrapped" beside the
// recordings in mcpscope's state directory
// ($XDG_STATE_HOME/mcpscope/wrapped).
func Dir() (string, error) {
	rec, err := recordings.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(rec), "wrapped"), nil
}

// backupFile names the backup of the entry name of project in path.
func backupFile(dir, path, project, name string) string {
	sum := sha256.Sum256([]byte(path + "\x00" + project + "\x00" + name))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".json")
}

// save writes b into dir (created 0700), the file 0600.
func (b *Backup) save(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the backup directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("the backup directory: %w", err)
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	b.file = backupFile(dir, b.Path, b.Project, b.Name)
	if err := writeAtomic(b.file, data, 0o600, nil); err != nil {
		return fmt.Errorf("the backup: %w", err)
	}
	return nil
}

// remove deletes the backup.
func (b *Backup) remove() error {
	if err := os.Remove(b.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing the backup %s: %w", b.file, err)
	}
	return nil
}

// Backups lists the backups in dir, those called name only when name is
// not "". A backup that cannot be read is an error beside the others.
func Backups(dir, name string) ([]*Backup, []error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var out []*Backup
	var errs []error
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := readBackup(filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if name == "" || b.Name == name {
			out = append(out, b)
		}
	}
	return out, errs
}

// readBackup reads the backup in file.
func readBackup(file string) (*Backup, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBackup+1))
	if err != nil {
		return nil, fmt.Errorf("the backup %s: %w", file, err)
	}
	if len(data) > maxBackup {
		return nil, fmt.Errorf("the backup %s is larger than %d bytes", file, maxBackup)
	}
	var b Backup
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("the backup %s: %w", file, err)
	}
	if b.Path == "" || b.Name == "" {
		return nil, fmt.Errorf("the backup %s names no file or entry", file)
	}
	b.file = file
	return &b, nil
}

// writeAtomic replaces path with data all at once (atomicfile.Write).
var writeAtomic = atomicfile.Write
