// Package oauth authorizes mcpscope at the authorization server of an MCP
// server that answers 401, as the MCP authorization spec says (2025-11-25,
// 2026-07-28): the challenge, the protected resource metadata (RFC 9728),
// the authorization server metadata (RFC 8414, OpenID discovery, the
// 2025-03-26 fallbacks), the client's registration (a Client ID Metadata
// Document, a pre-registered client, or dynamic registration, RFC 7591),
// the authorization code with PKCE S256 and the RFC 8707 resource, the
// RFC 9207 iss check, the token, its refresh and step-up on
// insufficient_scope. The protocol is the official Go SDK's auth package;
// this package gives it mcpscope's browser, loopback redirect, token
// store, capture and checklist.
package oauth

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
)

// Config says where to authorize and how.
type Config struct {
	// Resource is the MCP server's URL, as the transport requests it.
	Resource string
	// ClientID and ClientSecret name a client registered beforehand at
	// the authorization server (--client-id, --client-secret).
	ClientID, ClientSecret string
	// ClientCredentials runs the client_credentials grant with ClientID
	// and ClientSecret (no user, no browser) instead of the authorization
	// code (--client-credentials).
	ClientCredentials bool
	// ClientMetadataURL is the https URL of a Client ID Metadata Document
	// to use as the client id where the server supports them
	// (--client-metadata-url).
	ClientMetadataURL string
	// Base sends the flow's own requests (nil: http.DefaultTransport).
	Base http.RoundTripper
	// Store keeps tokens between runs; nil keeps them for this run only.
	Store *tokenstore.Store
	// Open opens the authorization URL for the user (nil: OpenBrowser).
	Open func(ctx context.Context, u string) error
	// Say tells the user a line: the URL to open, what was stored.
	Say func(string)
	// OnStep, when set, gets the checklist of an authorization each time
	// one of its steps ends, and once more when it ended (done).
	OnStep func(r checklist.Report, done bool)
	// Wait bounds the wait for the browser's redirect (the --timeout).
	Wait time.Duration
	// Sink receives the flow's exchanges as frames (nil: none).
	Sink capture.Sink
	// NoRedact shows tokens, secrets and codes in frames.
	NoRedact bool
	// Version is mcpscope's, sent in a dynamic registration.
	Version string
}

// DefaultWait bounds the wait for the browser when Config.Wait is zero.
const DefaultWait = 2 * time.Minute

// Flow is the OAuth state of one target: the token in use, the handler
// that authorizes again when the server asks, the checklist. It is safe
// for concurrent use.
type Flow struct {
	cfg      Config
	resource string // cfg.Resource in its canonical form: the store's key
	origin   string // the origin of cfg.Resource: where the token may go
	hc       *http.Client

	authorizing sync.Mutex // one authorization at a time

	mu       sync.Mutex
	handler  *auth.AuthorizationCodeHandler
	redirect *loopback
	source   oauth2.TokenSource // the token in use and its refresh; nil before any
	oc       *oauth2.Config     // the client and endpoints of source
	entry    tokenstore.Entry   // what is stored of source
	fresh    string             // the access token the last authorization issued
	renewed  string             // the access token the last refresh issued
	code     string             // the last authorization code, masked in frames
	audience string             // the resource parameter of the authorization (RFC 8707)
	issuers  map[string]string  // token endpoint → issuer, from the metadata read
	refused  error              // metadata the flow must not follow
	failed   error              // why the last authorization failed: not tried again this run
	moves    int                // authorization servers the resource moved to this run
	stepUps  map[string]bool    // the scope sets of this run's step-ups
	steps    map[string]checklist.Result
	running  bool   // an authorization is under way: its steps go to OnStep
	under    string // the step under way, which a failure is put on
	alive    func()
	saveErr  bool
}

// New prepares the flow of cfg; a token stored for the resource is used
// at once. Nothing is sent until the server asks.
func New(cfg Config) (*Flow, error) {
	if cfg.Base == nil {
		cfg.Base = http.DefaultTransport
	}
	if cfg.Wait <= 0 {
		cfg.Wait = DefaultWait
	}
	if cfg.Open == nil {
		cfg.Open = OpenBrowser
	}
	resource, err := tokenstore.Canonical(cfg.Resource)
	if err != nil {
		return nil, fmt.Errorf("the OAuth resource: %w", err)
	}
	if cfg.ClientMetadataURL != "" {
		if u, err := url.Parse(cfg.ClientMetadataURL); err != nil || u.Scheme != "https" || strings.Trim(u.Path, "/") == "" {
			return nil, fmt.Errorf("--client-metadata-url %q: a Client ID Metadata Document's URL is an https URL with a path", cfg.ClientMetadataURL)
		}
	}
	u, err := url.Parse(cfg.Resource)
	if err != nil {
		return nil, fmt.Errorf("the OAuth resource: %w", err)
	}
	f := &Flow{cfg: cfg, resource: resource, origin: origin(u), issuers: map[string]string{}}
	// Each of the flow's own requests (metadata, registration, token,
	// refresh) is bounded by the --timeout, and followed only within its
	// origin.
	f.hc = &http.Client{Transport: &capturer{base: cfg.Base, f: f}, Timeout: cfg.Wait, CheckRedirect: checkRedirect}
	if err := f.restore(); err != nil {
		f.say(fmt.Sprintf("the stored OAuth token of %s is not used: %v", resource, err))
	}
	return f, nil
}

// SetAlive gives the flow a func to call at each step: the engine's
// requests waiting on the authorization keep their idle timers alive.
func (f *Flow) SetAlive(alive func()) {
	f.mu.Lock()
	f.alive = alive
	f.mu.Unlock()
}

// nudge tells the engine the flow is making progress.
func (f *Flow) nudge() {
	f.mu.Lock()
	alive := f.alive
	f.mu.Unlock()
	if alive != nil {
		alive()
	}
}

// say tells the user a line, sanitized: it may quote the servers.
func (f *Flow) say(s string) {
	if f.cfg.Say != nil {
		f.cfg.Say(termtext.Line(s))
	}
}

// Header returns the Authorization header value to send ("Bearer …"),
// refreshing an expired token first, or "" before any authorization. A
// token that cannot be refreshed is dropped: the server's next 401 starts
// a new authorization.
func (f *Flow) Header(ctx context.Context) string {
	f.mu.Lock()
	src := f.source
	f.mu.Unlock()
	if src == nil {
		return ""
	}
	tok, err := src.Token()
	if err != nil {
		err = f.maskErr(err)
		f.fail(StepRefresh, err)
		f.say(fmt.Sprintf("the OAuth token of %s could not be refreshed (%v); authorizing again when the server asks", f.resource, err))
		f.forget(src)
		return ""
	}
	return tok.Type() + " " + tok.AccessToken
}

// forget drops src when it is still the token in use.
func (f *Flow) forget(src oauth2.TokenSource) {
	f.mu.Lock()
	if f.source == src {
		f.source, f.oc = nil, nil
		f.entry.AccessToken, f.entry.RefreshToken = "", ""
	}
	f.mu.Unlock()
}

// Close stops the redirect listener.
func (f *Flow) Close() error {
	f.mu.Lock()
	r := f.redirect
	f.redirect = nil
	f.mu.Unlock()
	if r != nil {
		return r.close()
	}
	return nil
}

// Challenged answers the server's refusal rsp of req: a 401, or a 403
// asking for more scope. A request that went out before another one got a
// new token goes again with it; a token the server no longer takes is
// refreshed; a refreshed token it refuses too is used up, and the
// authorization runs (discovery, registration, the browser, the token),
// as it does without a token; a token refused right after an authorization
// issued it runs the authorization once more when the resource's metadata
// names another authorization server now. nil means the request may go
// again with Header. What would loop is refused: a token refused right
// after an authorization issued it by a resource that did not move
// (bearer.ErrTokenRefused), a scope refused though granted, a step-up past its
// bound, an authorization that failed already. A refusal from another
// origin than the resource's (a redirect's) is a *ForeignOriginError.
func (f *Flow) Challenged(ctx context.Context, req *http.Request, rsp *http.Response) error {
	if err := f.foreign(req, rsp); err != nil {
		// A redirect took the request elsewhere: neither the token, nor a
		// refreshed one, nor a registration goes there.
		return err
	}
	f.authorizing.Lock()
	defer f.authorizing.Unlock()
	challenges, _ := bearer.Challenges(rsp)
	sent := strings.TrimSpace(strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer"))
	f.mu.Lock()
	fresh, renewed, current, granted, failed := f.fresh, f.renewed, f.currentToken(), f.entry.Scopes, f.failed
	f.mu.Unlock()
	if current != "" && current != sent {
		// Another request authorized (or refreshed) meanwhile: this one
		// goes again with the new token.
		return nil
	}
	if failed != nil {
		// The user saw this run's authorization fail, step by step:
		// another request (the handshake's fallback to initialize) neither
		// opens the browser again nor replaces that checklist with a
		// shorter one.
		return &bearer.Error{Resource: f.resource, Err: failed}
	}
	f.begin(rsp, challenges)
	defer f.finish()
	if sent != "" && rsp.StatusCode == http.StatusForbidden && covers(granted, scopesOf(challenges)) {
		f.reveal()
		err := fmt.Errorf("the server refuses the scope %q though the token was granted it (403 again); not authorizing again, which would loop", strings.Join(scopesOf(challenges), " "))
		f.fail(StepAuthorize, err)
		return &bearer.Error{Resource: f.resource, Err: err}
	}
	stepUp := rsp.StatusCode == http.StatusForbidden
	if stepUp {
		if err := f.stepUpRefusal(scopesOf(challenges)); err != nil {
			f.reveal()
			f.fail(StepAuthorize, err)
			return &bearer.Error{Resource: f.resource, Err: err}
		}
	}
	if sent != "" && rsp.StatusCode == http.StatusUnauthorized {
		switch sent {
		case fresh:
			if to := f.movedTo(ctx, req, challenges); to != "" {
				// The resource moved to another authorization server:
				// the flow runs once more, there.
				f.move(to)
				f.step(StepChallenge, checklist.Passed, 0, describeChallenge(rsp, challenges)+"; the resource metadata names the authorization server "+to+" now")
				break
			}
			f.reveal()
			f.fail(StepAuthorize, bearer.ErrTokenRefused)
			f.mu.Lock()
			f.failed = bearer.ErrTokenRefused
			f.mu.Unlock()
			return &bearer.Error{Resource: f.resource, Err: bearer.ErrTokenRefused}
		case renewed:
			// The refresh grant is used up: refreshing again would loop.
			f.step(StepRefresh, checklist.Failed, 0, "the server refused the refreshed token too (401 again); authorizing again")
		default:
			if f.refresh(ctx) == nil {
				return nil // refreshed quietly: no checklist shown
			}
		}
	}
	f.reveal()
	h, err := f.authorizerOf()
	if err != nil {
		return &bearer.Error{Resource: f.resource, Err: f.maskErr(err)}
	}
	f.mu.Lock()
	f.refused = nil
	f.mu.Unlock()
	// The SDK drains the refusal's body unbounded when it returns: it
	// gets the head alone, and the transport discards a bounded part.
	head := *rsp
	head.Body = http.NoBody
	if err := h.Authorize(ctx, req, &head); err != nil {
		if refused := f.refusal(); refused != nil {
			err = refused
		}
		err = f.maskErr(err)
		f.failUnderWay(err)
		if ctx.Err() == nil {
			f.mu.Lock()
			f.failed = err
			f.mu.Unlock()
		}
		return &bearer.Error{Resource: f.resource, Err: err}
	}
	f.mu.Lock()
	f.fresh = f.currentToken()
	f.mu.Unlock()
	if stepUp {
		f.steppedUp(scopesOf(challenges))
	}
	return nil
}

// begin starts the checklist of an authorization with the server's
// challenge.
func (f *Flow) begin(rsp *http.Response, challenges []oauthex.Challenge) {
	f.mu.Lock()
	f.steps, f.running, f.under = nil, false, StepChallenge
	f.mu.Unlock()
	f.step(StepChallenge, checklist.Passed, 0, describeChallenge(rsp, challenges))
}

// reveal shows the checklist from here on: an authorization (or a refusal
// to authorize) is under way, not a quiet refresh.
func (f *Flow) reveal() {
	f.mu.Lock()
	f.running = true
	f.mu.Unlock()
	if f.cfg.OnStep != nil {
		f.cfg.OnStep(f.Steps(), false)
	}
}

// finish ends an authorization's checklist and tells OnStep, when it was
// shown.
func (f *Flow) finish() {
	f.mu.Lock()
	shown := f.running
	f.running = false
	f.mu.Unlock()
	if shown && f.cfg.OnStep != nil {
		f.cfg.OnStep(f.Steps(), true)
	}
}

// setUnder names the step under way.
func (f *Flow) setUnder(name string) {
	f.mu.Lock()
	f.under = name
	f.mu.Unlock()
}

// scopesOf is the scope a Bearer challenge asks for.
func scopesOf(cs []oauthex.Challenge) []string {
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params["scope"] != "" {
			return strings.Fields(c.Params["scope"])
		}
	}
	return nil
}

// covers reports whether granted holds every scope of want (and want
// names some).
func covers(granted, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for _, w := range want {
		if !slices.Contains(granted, w) {
			return false
		}
	}
	return true
}

// maskErr is err with the credentials its text may quote masked: the
// SDK's and oauth2's errors carry the bodies of registration and token
// answers.
func (f *Flow) maskErr(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	if masked := string(f.mask([]byte(text))); masked != text {
		return &maskedError{text: masked, err: err}
	}
	return err
}

// maskedError is an error whose text had credentials masked; it still
// unwraps to the original.
type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

// currentToken is the access token in use, or ""; f.mu is held.
func (f *Flow) currentToken() string {
	return f.entry.AccessToken
}

// refusal is the metadata the flow refused to follow, if any.
func (f *Flow) refusal() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused
}

// failUnderWay marks the step under way as failed with err: the last
// exchange or wait the flow began.
func (f *Flow) failUnderWay(err error) {
	f.mu.Lock()
	name := cmp.Or(f.under, StepAuthorize)
	f.mu.Unlock()
	f.fail(name, err)
}

// describeChallenge words the server's refusal for the checklist.
func describeChallenge(rsp *http.Response, cs []oauthex.Challenge) string {
	d := rsp.Status
	for _, c := range cs {
		if c.Scheme != "bearer" {
			continue
		}
		for _, k := range []string{"error", "scope", "resource_metadata"} {
			if v := c.Params[k]; v != "" {
				d += fmt.Sprintf(", %s=%q", k, v)
			}
		}
	}
	return d
}
