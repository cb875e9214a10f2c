package tokenstore

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// A test binary never reaches the OS keyring: statedir turns it off, and
// Default then keeps everything in the file under the test's own home.
func TestDefaultKeepsTestsOffTheKeyring(t *testing.T) {
	if got := os.Getenv(EnvKeyring); got != "off" {
		t.Fatalf("%s = %q in a test binary, want off", EnvKeyring, got)
	}
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if s.kr != nil || strings.Contains(s.Where(), "keyring") {
		t.Fatalf("Default uses a keyring in a test binary: %s", s.Where())
	}
	cfg, _ := os.UserConfigDir()
	if !strings.HasPrefix(s.Path(), cfg) || !strings.HasSuffix(s.Path(), "/mcpscope/"+FileName) {
		t.Fatalf("Default keeps tokens in %s, want mcpscope/%s under %s", s.Path(), FileName, cfg)
	}
}

type hungKeyring struct{ fakeKeyring }

func (*hungKeyring) Get(string, string) (string, error) { select {} }

type answeringKeyring struct{ fakeKeyring }

func (*answeringKeyring) Get(string, string) (string, error) { return "", errors.New("no D-Bus") }

func TestProbe(t *testing.T) {
	if !answers(newFakeKeyring(), time.Minute) {
		t.Error("a keyring answering ErrNotFound is not taken")
	}
	if answers(&answeringKeyring{}, time.Minute) {
		t.Error("a keyring answering another error is taken")
	}
	if answers(&hungKeyring{}, 10*time.Millisecond) {
		t.Error("a hung keyring is taken")
	}
}
