package oauthtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// browserPackage is the fake browser's import path, built from any
// directory of the module.
const browserPackage = "github.com/mcpscope/mcpscope/internal/testkit/oauthtest/browser"

var browser struct {
	once sync.Once
	dir  string
	path string
	err  string
}

// RemoveBrowser removes the fake browser BrowserProgram built, if it built
// one: a TestMain calls it once the tests ran.
func RemoveBrowser() {
	if browser.dir != "" {
		_ = os.RemoveAll(browser.dir)
	}
}

// BrowserProgram returns the path of the fake browser (package
// internal/testkit/oauthtest/browser), built once per test binary into a
// temporary directory: set $BROWSER to it and a client's "open the
// browser" completes the authorization at once.
func BrowserProgram(t testing.TB) string {
	t.Helper()
	browser.once.Do(func() {
		dir, err := os.MkdirTemp("", "oauthtest-browser-")
		if err != nil {
			browser.err = err.Error()
			return
		}
		browser.dir = dir
		path := filepath.Join(dir, "browser")
		if runtime.GOOS == "windows" {
			path += ".exe"
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if out, err := exec.Command(goTool, "build", "-o", path, browserPackage).CombinedOutput(); err != nil {
			browser.err = err.Error() + "\n" + string(out)
			return
		}
		browser.path = path
	})
	if browser.err != "" {
		t.Fatalf("oauthtest: building the fake browser: %s", browser.err)
	}
	return browser.path
}
