// Command browser is a fake web browser for tests of OAuth clients, run as
// $BROWSER URL: it opens the authorization URL (the last argument) without
// following its redirect, then opens the Location it was sent to — the
// client's loopback callback — and exits 0. Any failure is told on stderr
// with exit status 1. It only talks to 127.0.0.1, ::1 and localhost, and
// gives up after 30 seconds.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "browser: usage: browser URL")
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	if err := visit(ctx, os.Args[len(os.Args)-1]); err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		os.Exit(1)
	}
}

// visit opens the authorization URL, then where it redirects.
func visit(ctx context.Context, authorize string) error {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := get(ctx, client, authorize)
	if err != nil {
		return err
	}
	loc, err := res.Location()
	if res.StatusCode < 300 || res.StatusCode > 399 || err != nil {
		return fmt.Errorf("%s answered %s, not a redirect", authorize, res.Status)
	}
	res, err = get(ctx, client, loc.String())
	if err != nil {
		return err
	}
	if res.StatusCode >= 400 {
		return fmt.Errorf("%s answered %s", loc, res.Status)
	}
	return nil
}

// get fetches raw, which must be a loopback http URL, and drains the body.
func get(ctx context.Context, client *http.Client, raw string) (*http.Response, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("parsing %q: %w", raw, err)
	}
	if h := u.Hostname(); u.Scheme != "http" || (h != "127.0.0.1" && h != "::1" && h != "localhost") {
		return nil, errors.New("refusing " + raw + ": only loopback http URLs")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, fmt.Errorf("request %q: %w", raw, err)
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", raw, err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	return res, nil
}
