package recordings

import (
	"bytes"
	"strings"
	"testing"
)

// TestSecretWordsCoverSecretNames: every name SecretKey calls a secret
// holds one of secretWords, so the quick check never skips a secret.
func TestSecretWordsCoverSecretNames(t *testing.T) {
	names := append(append([]string{"sessionToken", "X-Auth-TOKEN", "myPassword2", "TopSecret"}, secretKeys...), secretKeyParts...)
	for _, k := range secretKeys {
		names = append(names, strings.ToUpper(k))
	}
	for _, n := range names {
		if !SecretKey(n) {
			t.Fatalf("%q is no secret name: the list is wrong", n)
		}
		if !mayHoldSecretName([]byte(n)) {
			t.Errorf("%q is a secret name, but the quick check says it holds none", n)
		}
	}
	if mayHoldSecretName([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)) {
		t.Errorf("a tools/call without a secret word is scanned in full")
	}
}

// FuzzRedactQuickCheck: bytes the quick check passes over hold no secret
// member nor escaped member, bytes without '=' no form field, and a header name is told a
// secret without a copy exactly as strings.ToLower tells it.
func FuzzRedactQuickCheck(f *testing.F) {
	f.Add([]byte(`{"access_token":"abc","x":{"Client_Secret" : "q"}}`), "Authorization")
	f.Add([]byte(`{"text":"{\"ApiKey\":\"v\"}"}`), "X-API-\u212Aey")
	f.Add([]byte("a=1&password=hunter2 "), " cookie ")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		if !mayHoldSecretName(b) {
			if n := len(secretMembers(b)) + len(escapedMembers(b)); n > 0 {
				t.Fatalf("%q: the quick check found no secret word, the scans found %d secret members", b, n)
			}
		}
		if bytes.IndexByte(b, '=') < 0 {
			if n := len(formValues(b)); n > 0 {
				t.Fatalf("%q: no '=', yet %d secret form fields", b, n)
			}
		}
		r := newRedactor(Options{SecretHeaders: []string{"Authorization", "Cookie", "X-Api-Key", "x-auth-token"}})
		want := r.headers[strings.ToLower(string(bytes.TrimSpace([]byte(name))))]
		if got := r.secretHeader([]byte(name)); got != want {
			t.Fatalf("header %q: secret %v, want %v", name, got, want)
		}
	})
}
