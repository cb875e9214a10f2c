package tokenstore

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// ErrNoKeyring is wrapped by the error of a Delete that removed entries
// whose secrets are in the OS keyring through a store that has none: the
// keyring items are left behind.
var ErrNoKeyring = errors.New("this store does not use the OS keyring")

// Store keeps entries in tokens.json in its directory and, when it has a
// Keyring, their secrets in the keyring. Every call re-reads the file
// under a lock, so stores in other processes (and other Stores on the same
// directory) lose nothing of each other's writes. It is safe for
// concurrent use.
type Store struct {
	dir string
	kr  Keyring
	mu  sync.Mutex // orders this Store's own calls; the lock file orders processes
}

// Open returns the store kept in dir. With kr nil the secrets go to the
// file. Nothing is read or created until a call needs it.
func Open(dir string, kr Keyring) *Store {
	return &Store{dir: dir, kr: kr}
}

// Path returns the token file's path.
func (s *Store) Path() string { return filepath.Join(s.dir, FileName) }

// Where says where the store keeps tokens, for `auth status`: "the OS
// keyring (service mcpscope), index in FILE", or FILE.
func (s *Store) Where() string {
	if s.kr != nil {
		return fmt.Sprintf("the OS keyring (service %s), index in %s", Service, s.Path())
	}
	return s.Path()
}

// Find returns the entries of the resource (compared by Canonical), newest
// Saved first, secrets included.
func (s *Store) Find(resource string) ([]Entry, error) {
	c, err := Canonical(resource)
	if err != nil {
		return nil, err
	}
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(e Entry) bool { return !sameResource(e.Resource, c) }), nil
}

// List returns every entry, by resource and then newest Saved first,
// secrets included (read from the keyring for entries kept there).
func (s *Store) List() ([]Entry, error) {
	var out []Entry
	err := s.locked(false, func(doc *fileDoc) (bool, error) {
		for _, e := range doc.Entries {
			full, err := s.withKeyringSecrets(e)
			if err != nil {
				return false, err
			}
			out = append(out, full)
		}
		return false, nil
	})
	slices.SortStableFunc(out, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Resource, b.Resource), b.Saved.Compare(a.Saved))
	})
	return out, err
}

// Save keeps e, replacing the entry with the same Issuer and Resource.
// Resource is stored in its Canonical form, Saved is stamped with the
// current time when zero, and with a keyring the secrets go there. A
// token file that cannot be read is not replaced: Save fails.
func (s *Store) Save(e Entry) error {
	c, err := Canonical(e.Resource)
	if err != nil {
		return err
	}
	if e.Issuer == "" {
		return errors.New("saving a token: the entry has no issuer")
	}
	e.Resource = c
	if e.Saved.IsZero() {
		e.Saved = time.Now().UTC()
	}
	return s.locked(true, func(doc *fileDoc) (bool, error) {
		doc.Entries = slices.DeleteFunc(doc.Entries, func(old Entry) bool {
			return old.Issuer == e.Issuer && sameResource(old.Resource, c)
		})
		e.InKeyring = false
		if s.kr != nil {
			if err := s.setKeyringSecrets(e); err != nil {
				return false, err
			}
			e = withoutSecrets(e)
			e.InKeyring = true
		}
		doc.Entries = append(doc.Entries, e)
		return true, nil
	})
}

// Delete removes every entry of the resource (compared by Canonical), from
// the file and from the keyring, and returns what it removed, secrets
// included where they could be read. Through a store without a keyring,
// entries kept in the keyring leave their keyring items behind and the
// error wraps ErrNoKeyring; the entries are removed all the same.
func (s *Store) Delete(resource string) ([]Entry, error) {
	c, err := Canonical(resource)
	if err != nil {
		return nil, err
	}
	var removed []Entry
	err = s.locked(true, func(doc *fileDoc) (bool, error) {
		doc.Entries = slices.DeleteFunc(doc.Entries, func(e Entry) bool {
			if sameResource(e.Resource, c) {
				removed = append(removed, e)
				return true
			}
			return false
		})
		return len(removed) > 0, nil
	}, func() error { return s.forget(removed) })
	return removed, err
}

// forget removes the keyring items of removed entries, after the file no
// longer names them, and fills their secrets in where it reads them first.
func (s *Store) forget(removed []Entry) error {
	var errs []error
	for i, e := range removed {
		if !e.InKeyring {
			continue
		}
		if s.kr == nil {
			errs = append(errs, fmt.Errorf("the OS keyring item %q of service %s is left: %w", keyringUser(e), Service, ErrNoKeyring))
			continue
		}
		if full, err := s.withKeyringSecrets(e); err == nil {
			removed[i] = full
		}
		if err := s.kr.Delete(Service, keyringUser(e)); err != nil && !errors.Is(err, ErrNotFound) {
			errs = append(errs, fmt.Errorf("removing the OS keyring item %q of service %s: %w", keyringUser(e), Service, err))
		}
	}
	return errors.Join(errs...)
}

// locked runs change on the token file under the lock. When write is set
// and change reports a change, the file is written back before after runs,
// still under the lock. Without write, a store whose file does not exist
// is read as empty without creating its directory.
func (s *Store) locked(write bool, change func(*fileDoc) (bool, error), after ...func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !write {
		if _, err := os.Stat(s.Path()); err != nil {
			doc := fileDoc{Version: fileVersion}
			_, err := change(&doc)
			return err
		}
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("creating the token directory: %w", err)
	}
	unlock, err := lock(filepath.Join(s.dir, lockName), lockWait)
	if err != nil {
		return err
	}
	defer unlock()
	doc, err := readFile(s.Path())
	if err != nil {
		return err
	}
	changed, err := change(&doc)
	if err != nil {
		return err
	}
	if write && changed {
		if err := writeFile(s.dir, doc); err != nil {
			return err
		}
	}
	for _, f := range after {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// sameResource reports whether a stored resource is the canonical c; a
// stored value that is not a URI is compared as it is.
func sameResource(stored, c string) bool {
	if sc, err := Canonical(stored); err == nil {
		return sc == c
	}
	return stored == c
}
