package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
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
	prm, _, err := f.resourceMetadata(ctx, cs, req.URL.String())
	if err != nil || prm == nil {
		return ""
	}
	if as := prm.AuthorizationServers[0]; strings.TrimSuffix(as, "/") != strings.TrimSuffix(issuer, "/") {
		return as
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

// metadataPlaces lists where the metadata of the resource at u may be,
// the URLs the SDK's handler reads, in its order (MCP authorization): the
// resource_metadata of any challenge, the well-known URL with u's path,
// the well-known URL at the root. Like the SDK's, they keep u's query and
// a trailing "/" of its path.
func metadataPlaces(cs []oauthex.Challenge, u string) []metadataPlace {
	var out []metadataPlace
	for _, c := range cs {
		if m := c.Params["resource_metadata"]; m != "" {
			out = append(out, metadataPlace{m, u})
			break
		}
	}
	ru, err := url.Parse(u)
	if err != nil {
		return out
	}
	at := *ru
	at.Path = wellKnownPRM + "/" + strings.TrimLeft(ru.Path, "/")
	out = append(out, metadataPlace{at.String(), u})
	at.Path = wellKnownPRM
	ru.Path = ""
	return append(out, metadataPlace{at.String(), ru.String()})
}

// resourceMetadata finds the protected resource metadata of the resource
// at u as the SDK's handler does: the first document of metadataPlaces
// that names the resource, where it is; an error when that document names
// no authorization server; nil when no place holds one (the 2025-03-26
// fallback: the server's origin authorizes). A document naming another
// resource is passed over, as the SDK does, and leaves the flow's refusal
// (learn) unless a later one names the resource.
func (f *Flow) resourceMetadata(ctx context.Context, cs []oauthex.Challenge, u string) (*oauthex.ProtectedResourceMetadata, string, error) {
	for _, at := range metadataPlaces(cs, u) {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, at.url, at.resource, f.hc)
		if err != nil || prm == nil {
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, at.url, fmt.Errorf("the protected resource metadata at %s names no authorization server", at.url)
		}
		return prm, at.url, nil
	}
	return nil, "", nil
}
