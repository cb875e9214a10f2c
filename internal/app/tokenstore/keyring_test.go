package tokenstore

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
)

// fakeKeyring is an in-memory Keyring; getErr, when set, is every Get's answer.
type fakeKeyring struct {
	mu     sync.Mutex
	items  map[string]string
	getErr error
}

func newFakeKeyring() *fakeKeyring { return &fakeKeyring{items: map[string]string{}} }

func (k *fakeKeyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.getErr != nil {
		return "", k.getErr
	}
	v, ok := k.items[service+"\x00"+user]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *fakeKeyring) Set(service, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.items[service+"\x00"+user] = secret
	return nil
}

func (k *fakeKeyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.items[service+"\x00"+user]; !ok {
		return ErrNotFound
	}
	delete(k.items, service+"\x00"+user)
	return nil
}

func (k *fakeKeyring) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.items)
}

func TestKeyringKeepsSecretsOutOfTheFile(t *testing.T) {
	kr := newFakeKeyring()
	s := Open(t.TempDir(), kr)
	want := entry("https://auth.example.com", "https://mcp.example.com/mcp", 1)
	mustSave(t, s, want)
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{want.ClientSecret, want.AccessToken, want.RefreshToken} {
		if strings.Contains(string(data), secret) {
			t.Fatalf("the file holds a secret with a keyring at hand:\n%s", data)
		}
	}
	if !strings.Contains(string(data), `"keyring": true`) || !strings.Contains(string(data), want.ClientID) {
		t.Fatalf("the file does not mark the entry as kept in the keyring:\n%s", data)
	}
	if v, err := kr.Get(Service, want.Issuer+" "+want.Resource); err != nil || !strings.Contains(v, want.AccessToken) {
		t.Fatalf("keyring item = %q, %v; want the secrets as JSON under issuer + space + resource", v, err)
	}
	got := mustFind(t, Open(s.dir, kr), want.Resource)
	want.InKeyring = true
	if len(got) != 1 || got[0].AccessToken != want.AccessToken || got[0].RefreshToken != want.RefreshToken ||
		got[0].ClientSecret != want.ClientSecret || !got[0].InKeyring || got[0].ClientID != want.ClientID {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
}

func TestKeyringDeleteRemovesItems(t *testing.T) {
	kr := newFakeKeyring()
	s := Open(t.TempDir(), kr)
	mustSave(t, s,
		entry("https://a.example.com", "https://example.com/mcp", 1),
		entry("https://b.example.com", "https://example.com/mcp", 2),
		entry("https://a.example.com", "https://example.com/keep", 3))
	removed, err := s.Delete("https://example.com/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || removed[0].AccessToken == "" {
		t.Fatalf("Delete returned %+v, want two entries with their secrets", removed)
	}
	if kr.len() != 1 {
		t.Fatalf("the keyring holds %d items after Delete, want 1 (the other resource's)", kr.len())
	}
}

func TestKeyringGetFailureNamesTheKeyring(t *testing.T) {
	kr := newFakeKeyring()
	s := Open(t.TempDir(), kr)
	e := entry("https://a.example.com", "https://example.com/mcp", 1)
	mustSave(t, s, e)
	kr.getErr = errors.New("the keyring is locked")
	_, err := s.Find(e.Resource)
	if err == nil || !strings.Contains(err.Error(), "OS keyring (service mcpscope)") || !errors.Is(err, kr.getErr) {
		t.Fatalf("Find with a failing keyring = %v, want an error naming the keyring", err)
	}
	kr.getErr = nil
	kr.items[Service+"\x00"+keyringUser(e)] = "not json secret-xyz"
	_, err = s.Find(e.Resource)
	if !errors.Is(err, ErrKeyringValue) || strings.Contains(err.Error(), "secret-xyz") {
		t.Fatalf("Find with a foreign keyring item = %v, want ErrKeyringValue without the item", err)
	}
}

// A store without a keyring reads entries kept in one without their
// secrets, and says what its Delete leaves in the keyring.
func TestKeyringEntriesThroughAStoreWithout(t *testing.T) {
	kr := newFakeKeyring()
	dir := t.TempDir()
	e := entry("https://a.example.com", "https://example.com/mcp", 1)
	mustSave(t, Open(dir, kr), e)
	plain := Open(dir, nil)
	got := mustFind(t, plain, e.Resource)
	if len(got) != 1 || !got[0].InKeyring || got[0].AccessToken != "" {
		t.Fatalf("Find without keyring = %+v, want the entry marked InKeyring, no secrets", got)
	}
	removed, err := plain.Delete(e.Resource)
	if !errors.Is(err, ErrNoKeyring) || len(removed) != 1 || !strings.Contains(err.Error(), keyringUser(e)) {
		t.Fatalf("Delete without keyring = %+v, %v; want the entry removed and ErrNoKeyring naming its item", removed, err)
	}
	if got := mustFind(t, plain, e.Resource); len(got) != 0 {
		t.Fatalf("the entry is still in the file: %+v", got)
	}
	// A store with the keyring saves over it: the secrets go to the file no more.
	mustSave(t, plain, e)
	mustSave(t, Open(dir, kr), e)
	data, _ := os.ReadFile(plain.Path())
	if strings.Contains(string(data), e.AccessToken) {
		t.Fatal("a keyring store's Save left the secret a plain store wrote in the file")
	}
}
