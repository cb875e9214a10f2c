package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpscope/mcpscope/internal/tokenstore"
)

// maxMoves bounds how many times one run follows the resource to another
// authorization server: servers that name each other in turn do not loop.
const maxMoves = 2

// movedTo reads the resource's protected resource metadata (RFC 9728)
// again when the server refused the token an authorization had just
// issued. When the metadata names another authorization server than the
// one that issued the token, the resource has moved, and the flow must
// discover and register there (MCP authorization, 2026-07-28); that
// server's URL is returned. Anything else (the same server, no metadata,
// the bound reached) returns "": authorizing again would loop.
func (f *Flow) movedTo(ctx context.Context, req *http.Request, cs []oauthex.Challenge) string {
	f.mu.Lock()
	issuer, moves := f.entry.Issuer, f.moves
	f.mu.Unlock()
	if issuer == "" || moves >= maxMoves {
		return ""
	}
	for _, at := range metadataPlaces(cs, req.URL) {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, at.url, at.resource, f.hc)
		if err != nil || prm == nil || len(prm.AuthorizationServers) == 0 {
			continue
		}
		if as := prm.AuthorizationServers[0]; strings.TrimSuffix(as, "/") != strings.TrimSuffix(issuer, "/") {
			return as
		}
		return ""
	}
	return ""
}

// move makes the flow forget the token of the authorization server the
// resource left, and its scopes, so that the authorization at to starts
// from scratch.
func (f *Flow) move(to string) {
	f.mu.Lock()
	from := f.entry.Issuer
	f.moves++
	f.source, f.oc = nil, nil
	f.entry = tokenstore.Entry{}
	f.fresh, f.renewed = "", ""
	f.mu.Unlock()
	f.say(fmt.Sprintf("the protected resource metadata of %s names another authorization server now (%s, not %s): authorizing there", f.resource, to, from))
}

// metadataPlace is a URL protected resource metadata may be at, and the
// resource the document there must name (RFC 9728 §3.3).
type metadataPlace struct{ url, resource string }

// metadataPlaces lists where the metadata of the resource at u may be, in
// the order MCP authorization asks: the challenge's resource_metadata,
// the well-known URL with u's path, the well-known URL at the root.
func metadataPlaces(cs []oauthex.Challenge, u *url.URL) []metadataPlace {
	var out []metadataPlace
	for _, c := range cs {
		if m := c.Params["resource_metadata"]; c.Scheme == "bearer" && m != "" {
			out = append(out, metadataPlace{m, u.String()})
			break
		}
	}
	at := url.URL{Scheme: u.Scheme, Host: u.Host}
	if p := strings.Trim(u.Path, "/"); p != "" {
		at.Path = wellKnownPRM + "/" + p
		out = append(out, metadataPlace{at.String(), u.String()})
	}
	at.Path = wellKnownPRM
	root := url.URL{Scheme: u.Scheme, Host: u.Host}
	return append(out, metadataPlace{at.String(), root.String()})
}
