package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// fetch is the SDK handler's AuthorizationCodeFetcher: it opens the
// authorization URL in the browser (or prints it) and waits, for at most
// Config.Wait, for the redirect to the loopback listener.
func (f *Flow) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	if refused := f.refusal(); refused != nil {
		return nil, refused
	}
	if err := BrowsableURL(args.URL); err != nil {
		// Neither opened nor printed: a file:, ssh: or vscode: URL the
		// metadata names would run whatever handles it.
		f.fail(StepBrowser, err)
		return nil, err
	}
	f.mu.Lock()
	lb := f.redirect
	f.mu.Unlock()
	lb.drain()
	host := args.URL
	if u, err := url.Parse(args.URL); err == nil {
		host = u.Host
		if r := u.Query().Get("resource"); r != "" {
			f.mu.Lock()
			f.audience = r
			f.mu.Unlock()
		}
	}
	f.note(ConnName+" browser", "open "+args.URL)
	f.say("authorize mcpscope at " + host + " in the browser: " + args.URL)
	start := time.Now()
	f.setUnder(StepBrowser)
	switch err := f.cfg.Open(ctx, args.URL); {
	case errors.Is(err, ErrNoBrowser):
		f.step(StepBrowser, checklist.Skipped, time.Since(start), "headless: the URL is printed for the user to open")
	case err != nil:
		f.step(StepBrowser, checklist.Skipped, time.Since(start), fmt.Sprintf("could not open a browser (%v): the URL is printed for the user to open", err))
	default:
		f.step(StepBrowser, checklist.Passed, time.Since(start), "opened "+host)
	}
	f.setUnder(StepAuthorize)
	// The user's time in the browser has this limit alone: the limit of
	// the transport's start (client.StartContext) stands still meanwhile.
	resume := client.PauseStart(ctx)
	wait, cancel := context.WithTimeout(ctx, f.cfg.Wait)
	defer cancel()
	cb, err := lb.wait(wait)
	resume()
	if err != nil {
		if ctx.Err() == nil {
			err = &BrowserTimeoutError{Wait: f.cfg.Wait, Host: host}
		}
		f.fail(StepAuthorize, err)
		return nil, err
	}
	if cb.Error != "" {
		err := fmt.Errorf("the authorization server refused: %s", cb.Error)
		if cb.ErrorDescription != "" {
			err = fmt.Errorf("the authorization server refused: %s: %s", cb.Error, cb.ErrorDescription)
		}
		f.fail(StepAuthorize, err)
		return nil, err
	}
	detail := "code received"
	if cb.Iss != "" {
		detail += ", iss " + cb.Iss
	}
	f.step(StepAuthorize, checklist.Passed, time.Since(start), detail)
	return &auth.AuthorizationResult{Code: cb.Code, State: cb.State, Iss: cb.Iss}, nil
}

// callbackSeen captures the browser's redirect as it reached the loopback
// listener, its code masked.
func (f *Flow) callbackSeen(r *http.Request, cb callback) {
	f.mu.Lock()
	f.code = cb.Code
	f.mu.Unlock()
	h := r.Header.Clone()
	h.Set("Host", r.Host)
	raw, fields := httphead.HTTPRequestHead(r.Method, string(f.mask([]byte(r.URL.RequestURI()))), httphead.CapturedHeaders(h, f.cfg.NoRedact))
	f.reportHead(capture.In, ConnName+" callback", &capture.Frame{Raw: raw, Fields: fields})
}

// BrowserTimeoutError says the browser brought no redirect back within the
// flow's wait: the user did not complete the authorization in time. It is a
// time limit running out (Timeout is true), so a command exits as one.
type BrowserTimeoutError struct {
	Wait time.Duration // the flow's wait for the browser
	Host string        // the authorization server's host
}

func (e *BrowserTimeoutError) Error() string {
	return fmt.Sprintf("no redirect from the browser within %s (--timeout): the authorization at %s was not completed", e.Wait, e.Host)
}

// Timeout is true: the wait for the browser ran out.
func (e *BrowserTimeoutError) Timeout() bool { return true }
