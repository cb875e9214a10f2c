package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// resourceMetadataParam finds the resource_metadata parameter of a
// WWW-Authenticate challenge (RFC 9728 §5.1).
var resourceMetadataParam = regexp.MustCompile(`(?i)resource_metadata\s*=\s*"([^"]*)"`)

// challengeShown caps the challenge quoted on the checklist.
const challengeShown = 120

// maxMetadata bounds the protected resource metadata read (1 MiB, as the
// OAuth flow reads it).
const maxMetadata = 1 << 20

// wellKnownPRM is where protected resource metadata lives (RFC 9728 §3.1).
const wellKnownPRM = "/.well-known/oauth-protected-resource"

// auth reports whether the server asked for credentials: the challenge it
// sent and whether its protected resource metadata can be fetched. Getting
// the credentials is up to the user; a server that asks fails the step.
func (w *walk) auth(ch *challenge) {
	w.step("auth", func(ctx context.Context) (string, error) {
		if ch == nil {
			return "no credentials asked", nil
		}
		what := "401 Unauthorized, challenge " + termtext.LineMax(orNone(ch.header), challengeShown)
		if w.unix != nil {
			return "", fail(checklist.Connection, unixAuthFix, "%s", what)
		}
		if w.cfg.Grant != nil {
			return w.grant(ctx, ch, what)
		}
		where := metadataURLs(w.cfg.URL, ch.header)
		found, err := w.fetchMetadata(ctx, where)
		if err != nil {
			what += "; protected resource metadata not reachable: " + err.Error()
		} else {
			what += "; protected resource metadata at " + found
		}
		return "", fail(checklist.Connection, w.authFix(ctx, ch), "%s", what)
	})
}

// grant runs the grant of Config.Grant for the challenge ch and adds the
// token to every probe that follows.
func (w *walk) grant(ctx context.Context, ch *challenge, what string) (string, error) {
	req, err := w.newRequest(ctx, http.MethodPost, http.NoBody)
	if err != nil {
		return "", err
	}
	rsp := &http.Response{StatusCode: http.StatusUnauthorized, Status: "401 Unauthorized",
		Header: http.Header{"Www-Authenticate": ch.values}, Body: http.NoBody, Request: req}
	authorization, err := w.cfg.Grant(ctx, req, rsp)
	if err != nil {
		return "", fail(checklist.Connection, grantFix, "%s; the client_credentials grant failed: %s", what, termtext.LineMax(err.Error(), fixShown))
	}
	w.cfg.Header = w.cfg.Header.Clone()
	if w.cfg.Header == nil {
		w.cfg.Header = http.Header{}
	}
	w.cfg.Header.Set("Authorization", authorization)
	return what + "; a token from the client_credentials grant (--client-credentials)", nil
}

// grantFix is the fix of a client_credentials grant that failed.
const grantFix = "check --client-id and --client-secret against the client registered at the authorization server, and that it allows the client_credentials grant"

// metadataURLs lists where the protected resource metadata may be: the
// challenge's resource_metadata, then the well-known path with the
// resource's path appended, then at the root.
func metadataURLs(target *url.URL, header string) []string {
	var urls []string
	if m := resourceMetadataParam.FindStringSubmatch(header); m != nil {
		urls = append(urls, m[1])
	}
	base := httpOf(&url.URL{Scheme: target.Scheme, Host: target.Host})
	if p := strings.TrimSuffix(target.Path, "/"); p != "" {
		withPath := base
		withPath.Path = wellKnownPRM + p
		urls = append(urls, withPath.String())
	}
	base.Path = wellKnownPRM
	return append(urls, base.String())
}

// fetchMetadata fetches the first of urls that answers 200 with a JSON
// object naming its authorization servers, and says where and which.
func (w *walk) fetchMetadata(ctx context.Context, urls []string) (string, error) {
	var last error
	for _, u := range urls {
		found, err := w.fetchOne(ctx, u)
		if err == nil {
			return found, nil
		}
		last = err
	}
	return "", last
}

// fetchOne fetches one protected resource metadata document.
func (w *walk) fetchOne(ctx context.Context, u string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := w.httpClient().Do(req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", u, resp.Status)
	}
	if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media != "application/json" {
		return "", fmt.Errorf("%s: content type %s, not JSON", u, orNone(resp.Header.Get("Content-Type")))
	}
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	if len(body) > maxMetadata {
		return "", fmt.Errorf("%s: over %d MiB, the limit of protected resource metadata: not read further", u, maxMetadata>>20)
	}
	if err := json.Unmarshal(body, &prm); err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	return fmt.Sprintf("%s (authorization servers: %s)", u, orNone(strings.Join(prm.AuthorizationServers, ", "))), nil
}

// authFix is the auth step's fix: authorizing, exactly when mcpscope's
// OAuth flow would (Config.Authorization), else credentials of the user's
// own, with the reason the flow would not run.
func (w *walk) authFix(ctx context.Context, ch *challenge) string {
	const header = "pass credentials with --header 'Authorization: Bearer TOKEN'"
	if w.cfg.Authorization == nil {
		return "the server needs credentials: " + header
	}
	plan, err := w.cfg.Authorization(ctx, ch.values)
	if err != nil {
		return "mcpscope would not authorize here: " + termtext.LineMax(err.Error(), fixShown) + "; " + header
	}
	return "the server uses OAuth: connect once (mcpscope " + w.cfg.URL.Redacted() + "), which " + termtext.LineMax(plan, fixShown) + "; the token is stored for the doctor and every command, or " + header
}

// fixShown caps what a fix quotes of the flow's findings.
const fixShown = 300
