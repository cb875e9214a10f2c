package tokenstore

import (
	"errors"
	"time"
)

// Entry is what mcpscope keeps of one authorization: who issued it, for which
// resource, the client it registered, and the token.
type Entry struct {
	// Issuer is the authorization server's issuer identifier.
	Issuer string `json:"issuer"`
	// Resource is the MCP server's canonical URI (see Canonical).
	Resource string `json:"resource"`
	// Audience is the resource parameter (RFC 8707) the token was asked
	// for and is refreshed with: the endpoint's URL, or its origin when
	// the protected resource metadata at the root named that.
	Audience string `json:"audience,omitempty"`
	// ClientID is the client identifier the authorization server knows
	// mcpscope by.
	ClientID string `json:"client_id"`
	// ClientSecret is the client's secret, if it has one. Secret.
	ClientSecret string `json:"client_secret,omitempty"`
	// Registration says how the client came to be: "cimd",
	// "preregistered" or "dynamic".
	Registration string `json:"registration,omitempty"`
	// TokenURL is the authorization server's token endpoint.
	TokenURL string `json:"token_url"`
	// AuthStyle is the golang.org/x/oauth2 AuthStyle value the token
	// endpoint takes.
	AuthStyle int `json:"auth_style,omitempty"`
	// Scopes are the scopes granted.
	Scopes []string `json:"scopes,omitempty"`
	// AccessToken is the access token. Secret.
	AccessToken string `json:"access_token,omitempty"`
	// RefreshToken is the refresh token. Secret.
	RefreshToken string `json:"refresh_token,omitempty"`
	// TokenType is the access token's type, usually "Bearer".
	TokenType string `json:"token_type,omitempty"`
	// Expiry is when the access token expires; zero when unknown.
	Expiry time.Time `json:"expiry,omitzero"`
	// Saved is when the entry was saved. Save stamps the current time
	// when it is zero.
	Saved time.Time `json:"saved"`
	// InKeyring reports that the entry's secrets live in the OS keyring
	// rather than in the file. The store sets it; Save ignores the
	// caller's value. An entry read by a store without a keyring comes
	// back with InKeyring set and its secrets empty.
	InKeyring bool `json:"keyring,omitempty"`
}

// Keyring is the OS keyring's three calls (zalando/go-keyring's shape).
// Get and Delete answer an error wrapping ErrNotFound when the item does
// not exist.
type Keyring interface {
	// Get returns the secret kept for service and user.
	Get(service, user string) (string, error)
	// Set keeps secret for service and user, replacing what was there.
	Set(service, user, secret string) error
	// Delete removes the item of service and user.
	Delete(service, user string) error
}

// ErrNotFound is what a Keyring answers for an item that does not exist.
var ErrNotFound = errors.New("no such keyring item")

// Service is the keyring service mcpscope's items are kept under.
const Service = "mcpscope"

// secrets are the parts of an Entry that never go to the file when a
// keyring is at hand: they are kept as one JSON value in the keyring.
type secrets struct {
	ClientSecret string `json:"client_secret,omitempty"`
	AccessToken  string `json:"access_token,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

// secretsOf returns e's secrets.
func secretsOf(e Entry) secrets {
	return secrets{ClientSecret: e.ClientSecret, AccessToken: e.AccessToken, RefreshToken: e.RefreshToken}
}

// withoutSecrets returns e with its secrets emptied.
func withoutSecrets(e Entry) Entry {
	e.ClientSecret, e.AccessToken, e.RefreshToken = "", "", ""
	return e
}

// withSecrets returns e carrying s.
func withSecrets(e Entry, s secrets) Entry {
	e.ClientSecret, e.AccessToken, e.RefreshToken = s.ClientSecret, s.AccessToken, s.RefreshToken
	return e
}

// keyringUser is the keyring user an entry's secrets are kept under.
func keyringUser(e Entry) string { return e.Issuer + " " + e.Resource }
