package oauthtest

import (
	"os"
	"testing"
)

// TestMain removes the fake browser the tests built once they ran.
func TestMain(m *testing.M) {
	code := m.Run()
	RemoveBrowser()
	os.Exit(code)
}
