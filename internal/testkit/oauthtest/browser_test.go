package oauthtest

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

func TestBrowserFollowsOneRedirectToTheCallback(t *testing.T) {
	var mu sync.Mutex
	var got string
	callbackGot := func() string {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	callback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.URL.RawQuery
		mu.Unlock()
		if r.URL.Query().Get("fail") != "" {
			http.Error(w, "no", http.StatusInternalServerError)
		}
	}))
	defer callback.Close()
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/authorize":
			http.Redirect(w, r, callback.URL+"/cb?"+r.URL.RawQuery, http.StatusFound)
		case "/remote":
			http.Redirect(w, r, "http://example.com/cb", http.StatusFound)
		}
	}))
	defer as.Close()
	browser := BrowserProgram(t)
	run := func(url string) (string, error) {
		out, err := exec.Command(browser, "--new-window", url).CombinedOutput()
		return string(out), err
	}
	if out, err := run(as.URL + "/authorize?code=c1"); err != nil || callbackGot() != "code=c1" {
		t.Fatalf("a good flow: %v %s; the callback got %q", err, out, callbackGot())
	}
	for url, why := range map[string]string{
		as.URL + "/authorize?fail=1": "500",
		as.URL + "/plain":            "not a redirect",
		as.URL + "/remote":           "only loopback",
		"http://example.com/a":       "only loopback",
	} {
		out, err := run(url)
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !strings.Contains(out, why) {
			t.Errorf("%s: %v %q, want exit 1 saying %q", url, err, out, why)
		}
	}
}
