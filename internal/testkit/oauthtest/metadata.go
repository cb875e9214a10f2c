package oauthtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// resourceMetadata is the protected resource metadata (RFC 9728 §2).
type resourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name"`
}

// serverMetadata is the authorization server metadata (RFC 8414 §2), with
// the OpenID Connect Discovery members its OIDC places need.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	JWKSURI                           string   `json:"jwks_uri,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	SubjectTypesSupported             []string `json:"subject_types_supported,omitempty"`
	IDTokenSigningAlgValuesSupported  []string `json:"id_token_signing_alg_values_supported,omitempty"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported,omitempty"`
}

func (s *Server) serveResourceMetadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, resourceMetadata{
		Resource:               s.Resource,
		AuthorizationServers:   []string{s.Issuer},
		ScopesSupported:        s.opts.ScopesSupported,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "oauthtest",
	})
}

func (s *Server) serveASMetadata(w http.ResponseWriter, _ *http.Request) {
	o := s.opts
	m := serverMetadata{
		Issuer:                            s.Issuer,
		AuthorizationEndpoint:             s.AuthorizationEndpoint,
		TokenEndpoint:                     s.TokenEndpoint,
		RegistrationEndpoint:              s.RegistrationEndpoint,
		ScopesSupported:                   s.grantableScopes(),
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{grantCode},
		TokenEndpointAuthMethodsSupported: o.TokenAuthMethods,
		CodeChallengeMethodsSupported:     []string{"S256"},
		IssParameterSupported:             o.Iss == IssCorrect || o.Iss == IssWrong,
		ClientIDMetadataDocumentSupported: o.CIMD,
	}
	if o.ClientCredentials {
		m.GrantTypesSupported = append(m.GrantTypesSupported, grantClient)
	}
	if o.RefreshTokens {
		m.GrantTypesSupported = append(m.GrantTypesSupported, grantRefresh)
		if m.ScopesSupported == nil {
			// Advertised so that clients asking for refresh tokens the
			// OIDC way (offline_access) know they may.
			m.ScopesSupported = []string{"offline_access"}
		}
	}
	if o.AS == ASOIDC || o.AS == ASOIDCAppend {
		m.JWKSURI = s.Issuer + "/jwks"
		m.SubjectTypesSupported = []string{"public"}
		m.IDTokenSigningAlgValuesSupported = []string{"RS256"}
	}
	writeJSON(w, http.StatusOK, m)
}

// grantableScopes returns the scopes the authorization server grants, or
// nil when it grants any.
func (s *Server) grantableScopes() []string {
	o := s.opts
	if len(o.ScopesSupported) == 0 {
		return nil
	}
	scopes := slices.Clone(o.ScopesSupported)
	scopes = append(scopes, strings.Fields(o.ChallengeScope)...)
	if o.StepUpScope != "" {
		scopes = append(scopes, o.StepUpScope)
	}
	if o.RefreshTokens {
		scopes = append(scopes, "offline_access")
	}
	slices.Sort(scopes)
	return slices.Compact(scopes)
}

// serveEmptyKeySet serves the jwks_uri OIDC metadata must name: this server
// signs nothing, so the set is empty.
func serveEmptyKeySet(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string][]any{"keys": {}})
}

// writeJSON answers v as JSON; every answer of these servers is a
// credential or about one, so none may be cached (RFC 6749 §5.1).
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
