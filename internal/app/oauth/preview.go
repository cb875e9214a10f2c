package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Preview says what an authorization would do for a server that refused
// with the WWW-Authenticate values challenge, or why the flow would refuse
// to run one, without registering or opening the browser: the steps the
// flow takes before them, with the same checks; with ClientCredentials,
// the token endpoint the grant would use. The connection doctor
// suggests authorizing only when it returns no error.
func (f *Flow) Preview(ctx context.Context, challenge []string) (string, error) {
	cs, err := oauthex.ParseWWWAuthenticate(challenge)
	if err != nil {
		return "", fmt.Errorf("the challenge cannot be read: %w", err)
	}
	f.mu.Lock()
	f.refused = nil
	f.mu.Unlock()
	u, err := url.Parse(f.cfg.Resource)
	if err != nil {
		return "", fmt.Errorf("the OAuth resource: %w", err)
	}
	prm, _, err := f.resourceMetadata(ctx, cs, f.cfg.Resource)
	if refused := f.refusal(); refused != nil {
		// Every document found named another resource: the flow
		// refuses to go on (fetch), whatever the SDK fell back to.
		return "", refused
	}
	if err != nil {
		return "", err
	}
	issuer := u.Scheme + "://" + u.Host // the 2025-03-26 fallback: the server's origin authorizes
	if prm != nil {
		issuer = prm.AuthorizationServers[0]
	}
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, f.hc)
	if err != nil {
		return "", fmt.Errorf("the metadata of the authorization server %s: %w", issuer, err)
	}
	if asm == nil {
		asm = &oauthex.AuthServerMeta{Issuer: issuer, AuthorizationEndpoint: issuer + "/authorize", RegistrationEndpoint: issuer + "/register", TokenEndpoint: issuer + "/token"}
	}
	if f.cfg.ClientCredentials {
		if asm.TokenEndpoint == "" {
			return "", fmt.Errorf("the authorization server %s names no token endpoint for the client_credentials grant", asm.Issuer)
		}
		return fmt.Sprintf("gets a token at %s's token endpoint %s with the client_credentials grant as client %s (no browser; the token is not stored)", asm.Issuer, asm.TokenEndpoint, f.cfg.ClientID), nil
	}
	how, err := f.registration(asm)
	if err != nil {
		return "", err
	}
	if err := BrowsableURL(asm.AuthorizationEndpoint); err != nil {
		return "", err
	}
	return fmt.Sprintf("authorizes at %s (%s) in the browser", asm.Issuer, how), nil
}

// registration says how the flow would be a client of asm: the ways the
// SDK's handler tries, in its order.
func (f *Flow) registration(asm *oauthex.AuthServerMeta) (string, error) {
	switch {
	case f.cfg.ClientMetadataURL != "" && asm.ClientIDMetadataDocumentSupported:
		return "client ID metadata document " + f.cfg.ClientMetadataURL, nil
	case f.cfg.ClientID != "":
		return "client " + f.cfg.ClientID + " of --client-id", nil
	case asm.RegistrationEndpoint != "":
		return "dynamic registration", nil
	}
	return "", errors.New("the authorization server offers no way to register mcpscope (no dynamic registration, no client ID metadata documents): pass --client-id of a client registered there")
}
