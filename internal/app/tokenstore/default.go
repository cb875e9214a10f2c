package tokenstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// EnvKeyring names the environment variable that, set to "off", keeps
// Default away from the OS keyring (test binaries set it).
const EnvKeyring = "MCPSCOPE_KEYRING"

// probeWait bounds the probe of the OS keyring: a Secret Service reached
// over D-Bus can hang.
const probeWait = 2 * time.Second

// probeUser is a keyring user no entry has (an entry's user is an issuer,
// a space and a resource URI), asked for to see whether the keyring answers.
const probeUser = "mcpscope-probe"

// Default returns the user's store: the directory mcpscope in the user's
// config directory (os.UserConfigDir), with the OS keyring when one
// answers a probe within 2 s and EnvKeyring is not "off"; else the file
// alone.
func Default() (*Store, error) {
	cfg, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("finding the token directory: %w", err)
	}
	var kr Keyring
	if os.Getenv(EnvKeyring) != "off" && osKeyringAnswers() {
		kr = osKeyring{}
	}
	return Open(filepath.Join(cfg, "mcpscope"), kr), nil
}

// osKeyringAnswers probes the OS keyring once per process: every
// connection (a TUI's reconnects, a doctor walk) opens the store, and a
// hung keyring would cost each of them the probe's wait.
var osKeyringAnswers = sync.OnceValue(func() bool { return answers(osKeyring{}, probeWait) })

// answers reports whether kr answers a Get of an item that does not exist
// with ErrNotFound within wait. The Get runs on its own goroutine, which a
// hung keyring leaves behind.
func answers(kr Keyring, wait time.Duration) bool {
	done := make(chan error, 1)
	go func() {
		_, err := kr.Get(Service, probeUser)
		done <- err
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-done:
		return errors.Is(err, ErrNotFound)
	case <-timer.C:
		return false
	}
}

// osKeyring is the OS keyring through github.com/zalando/go-keyring, its
// ErrNotFound answered as this package's.
type osKeyring struct{}

// Get returns the secret of service and user.
func (osKeyring) Get(service, user string) (string, error) {
	v, err := keyring.Get(service, user)
	return v, notFound(err)
}

// Set keeps secret for service and user.
func (osKeyring) Set(service, user, secret string) error {
	return keyring.Set(service, user, secret)
}

// Delete removes the item of service and user.
func (osKeyring) Delete(service, user string) error {
	return notFound(keyring.Delete(service, user))
}

// notFound turns go-keyring's ErrNotFound into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, keyring.ErrNotFound) {
		return ErrNotFound
	}
	return err
}
