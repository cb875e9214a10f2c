package tokenstore

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrKeyringValue is wrapped by the error for a keyring item that is not
// the JSON mcpscope keeps there. The error never quotes the item.
var ErrKeyringValue = errors.New("not the JSON mcpscope keeps in the keyring")

// setKeyringSecrets keeps e's secrets in the keyring as one JSON value
// under the user Issuer + " " + Resource.
func (s *Store) setKeyringSecrets(e Entry) error {
	v, err := json.Marshal(secretsOf(e))
	if err != nil {
		return fmt.Errorf("encoding the secrets of %s for %s: %w", e.Issuer, e.Resource, err)
	}
	if err := s.kr.Set(Service, keyringUser(e), string(v)); err != nil {
		return fmt.Errorf("keeping the secrets of %s for %s in the OS keyring (service %s): %w", e.Issuer, e.Resource, Service, err)
	}
	return nil
}

// withKeyringSecrets returns e with the secrets the keyring keeps for it;
// an entry kept in the file, or read without a keyring, comes back as it is.
func (s *Store) withKeyringSecrets(e Entry) (Entry, error) {
	if !e.InKeyring || s.kr == nil {
		return e, nil
	}
	v, err := s.kr.Get(Service, keyringUser(e))
	if err != nil {
		return e, fmt.Errorf("reading the secrets of %s for %s from the OS keyring (service %s): %w", e.Issuer, e.Resource, Service, err)
	}
	var sec secrets
	if err := json.Unmarshal([]byte(v), &sec); err != nil {
		return e, fmt.Errorf("the OS keyring item %q of service %s: %w", keyringUser(e), Service, ErrKeyringValue)
	}
	return withSecrets(e, sec), nil
}
