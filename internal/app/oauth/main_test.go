package oauth

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestMain removes the fake browser the tests built once they ran.
func TestMain(m *testing.M) {
	code := m.Run()
	oauthtest.RemoveBrowser()
	os.Exit(code)
}
