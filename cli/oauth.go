package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/oauth"
	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// authWanted reports whether the transport of target may run an OAuth
// flow: an HTTP or WebSocket URL, no --no-auth, and no Authorization of
// the user's own (--header, or the config's headers).
func authWanted(f *runFlags, target Target, topts dial.Options) bool {
	if f.noAuth || target.URL == nil || target.URL.User != nil {
		return false // a URL's user and password are the user's own credentials
	}
	switch target.URL.Scheme {
	case "http", "https", "ws", "wss":
	default:
		return false
	}
	hdr, err := dial.ParseHeaders(topts.Headers)
	return err == nil && hdr.Get("Authorization") == ""
}

// unixNoOAuth says why no OAuth flow runs for a unix:// target.
const unixNoOAuth = "OAuth does not run over a Unix socket: the socket has no origin for the authorization server to name as the resource, and discovery would leave the socket for the network; pass a token with --header 'Authorization: Bearer TOKEN'"

// authResource is the URL the server's metadata names as the resource:
// the target, a WebSocket's in its HTTP form (the upgrade is an HTTP
// request to it).
func authResource(target Target) string {
	u := *target.URL
	u.User = nil
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	return u.String()
}

// authFlow builds the OAuth flow of target for the plan's session, or nil
// when it may not run one. say tells the user a line; sink receives the
// flow's exchanges.
func (p *connectPlan) authFlow(target Target, topts dial.Options, sink capture.Sink, say func(string)) (*oauth.Flow, error) {
	return newAuthFlow(p.flags, target, topts, sink, say, p.interactive, p.onAuthStep)
}

// withAuth gives topts the OAuth flow of target, when it may run one: the
// connections built outside a plan (a gateway stream's) authorize as the
// session's do. diag is where the run's lines go: a terminal there opens
// the browser.
func withAuth(f *runFlags, target Target, topts dial.Options, diag *lineWriter) (dial.Options, error) {
	flow, err := newAuthFlow(f, target, topts, topts.Sink, diag.Println, isTerminal(diag.w), nil)
	if err != nil || flow == nil {
		return topts, err
	}
	topts.Auth = flow
	return topts, nil
}

// newAuthFlow builds the OAuth flow of target, or nil when it may not run
// one; interactive opens the browser without $BROWSER, onStep (when set)
// is told of the checklist.
func newAuthFlow(f *runFlags, target Target, topts dial.Options, sink capture.Sink, say func(string), interactive bool, onStep authStepFunc) (*oauth.Flow, error) {
	if httpconf.IsUnix(target.URL) && (f.clientID != "" || f.clientSecret != "" || f.clientMetadataURL != "") {
		return nil, usagef("%s", unixNoOAuth)
	}
	if !authWanted(f, target, topts) {
		return nil, nil
	}
	store, err := tokenstore.Default()
	if err != nil {
		say("OAuth tokens are kept for this run only: " + err.Error())
		store = nil
	}
	open := oauth.OpenBrowser
	if !interactive && os.Getenv("BROWSER") == "" {
		open = func(context.Context, string) error { return oauth.ErrNoBrowser }
	}
	cfg := authConfig(f, target)
	cfg.Store, cfg.Open, cfg.Say, cfg.OnStep = store, open, say, onStep
	cfg.Sink, cfg.NoRedact = sink, f.noRedact
	flow, err := oauth.New(cfg)
	if err != nil {
		return nil, usagef("%w", err)
	}
	return flow, nil
}

// storedAuthorization is the Authorization header of the OAuth token
// stored for target, refreshed when it is due, or "" without one: the
// doctor walks the layers with the credentials every command would send.
// say is told what the flow says of the stored token (one it cannot send,
// and the command that forgets it).
func storedAuthorization(f *runFlags, target Target, topts dial.Options, say func(string)) string {
	if !authWanted(f, target, topts) {
		return ""
	}
	store, err := tokenstore.Default()
	if err != nil {
		return ""
	}
	cfg := authConfig(f, target)
	cfg.ClientID, cfg.ClientSecret, cfg.ClientMetadataURL, cfg.ClientCredentials = "", "", "", false // the stored token is used or refreshed, no client chosen
	cfg.Store, cfg.Say = store, say
	flow, err := oauth.New(cfg)
	if err != nil {
		return ""
	}
	defer flow.Close()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Wait)
	defer cancel()
	return flow.Header(ctx)
}

// authConfig is the part of the OAuth flow's configuration the flags and
// the target decide: the resource, the client, the transport and the wait.
func authConfig(f *runFlags, target Target) oauth.Config {
	return oauth.Config{
		Resource:          authResource(target),
		ClientID:          f.clientID,
		ClientSecret:      f.clientSecret,
		ClientCredentials: f.clientCredentials,
		ClientMetadataURL: f.clientMetadataURL,
		Base:              authTransport(f.insecure),
		Wait:              min(f.timeout, f.maxTime),
		Version:           Version(),
	}
}

// authTransport sends the flow's own requests (metadata, registration,
// token): the system's roots verify the authorization server, whose
// certificate --cert-hash (which pins the MCP server's) does not name;
// --insecure skips the verification there too.
func authTransport(insecure bool) http.RoundTripper {
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: insecure, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
		IdleConnTimeout:     30 * time.Second,
	}
}

// authStepFunc is told of an authorization's checklist as it goes, and
// when it ended (done).
type authStepFunc = func(r checklist.Report, done bool)

// authAdvice adds to err, when the server refused even the token an
// authorization had just issued, the way to start the next run from
// scratch: the stored token is forgotten by `mcpscope auth logout`.
func authAdvice(target Target, err error) error {
	if !errors.Is(err, bearer.ErrTokenRefused) {
		return err
	}
	name := target.Server
	if name == "" {
		name = target.String()
	}
	return fmt.Errorf("%w (mcpscope auth logout %s forgets the stored token, for the next run to authorize from scratch)", err, name)
}

// authPreview is what the OAuth flow of target would do for a server's
// challenge, for the doctor's auth step; nil when no flow would run. It
// registers nothing and opens no browser.
func authPreview(f *runFlags, target Target, topts dial.Options) func(context.Context, []string) (string, error) {
	if !authWanted(f, target, topts) {
		return nil
	}
	return func(ctx context.Context, challenge []string) (string, error) {
		flow, err := oauth.New(authConfig(f, target))
		if err != nil {
			return "", err
		}
		defer flow.Close()
		return flow.Preview(ctx, challenge)
	}
}

// grantedToken is the Authorization header the doctor's client_credentials
// grant got, for the sessions of the walk that follow.
type grantedToken struct {
	f      *runFlags
	target Target
	mu     sync.Mutex
	value  string
}

// clientGrant is the doctor's client_credentials grant for target, nil
// unless --client-credentials asks for one and an OAuth flow would run.
func clientGrant(f *runFlags, target Target, topts dial.Options) *grantedToken {
	if !f.clientCredentials || !authWanted(f, target, topts) {
		return nil
	}
	return &grantedToken{f: f, target: target}
}

// run runs the grant for the server's refusal rsp of req, as every command
// does, and returns the header of the token it got.
func (g *grantedToken) run(ctx context.Context, req *http.Request, rsp *http.Response) (string, error) {
	cfg := authConfig(g.f, g.target)
	cfg.Say = func(string) {}
	flow, err := oauth.New(cfg)
	if err != nil {
		return "", err
	}
	defer flow.Close()
	if err := flow.Challenged(ctx, req, rsp); err != nil {
		return "", err
	}
	h := flow.Header(ctx)
	if h == "" {
		return "", errors.New("the grant gave no token")
	}
	g.mu.Lock()
	g.value = h
	g.mu.Unlock()
	return h, nil
}

// header is the token's header, "" before the grant (or without one).
func (g *grantedToken) header() string {
	if g == nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.value
}
