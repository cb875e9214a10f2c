package oauthtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// bearer admits requests whose access token is live and bound to this
// resource (RFC 6750, RFC 8707), and asks for more scope before the
// step-up tool runs.
func (s *Server) bearer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, sent := bearerToken(r)
		if !sent {
			s.challenge(w, http.StatusUnauthorized, nil)
			return
		}
		t := s.live(raw)
		if t == nil {
			s.challenge(w, http.StatusUnauthorized, []string{`error="invalid_token"`})
			return
		}
		if s.opts.StepUpTool != "" && !slices.Contains(t.Scopes, s.opts.StepUpScope) && s.callsStepUpTool(r) {
			want := strings.Join(append(slices.Clone(t.Scopes), s.opts.StepUpScope), " ")
			s.challenge(w, http.StatusForbidden, []string{`error="insufficient_scope"`, fmt.Sprintf("scope=%q", want)})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken returns the token of an Authorization: Bearer header and
// whether one was sent at all (a token anywhere else does not count).
func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, tok, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(tok), true
}

// live returns a copy of the token raw when it is known, unexpired,
// unrevoked and bound to this resource (its own identifier, which differs
// from the one the authorization server binds to when PRMResource lies),
// and the options or RefuseEveryToken do not refuse it.
func (s *Server) live(raw string) *Token {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.access[raw]
	if t == nil || t.revoked || !time.Now().Before(t.Expires) || t.Resource != s.audience {
		return nil
	}
	if s.opts.AlwaysUnauthorized || s.refuseAll || s.opts.RefuseRefreshed && t.Grant == grantRefresh {
		return nil
	}
	cp := t.snapshot()
	return &cp
}

// challenge refuses a request with WWW-Authenticate: Bearer and its
// parameters: resource_metadata (PRMHeader only) and the configured scope
// first, then extra.
func (s *Server) challenge(w http.ResponseWriter, status int, extra []string) {
	var params []string
	if s.opts.PRM == PRMHeader {
		params = append(params, fmt.Sprintf("resource_metadata=%q", s.MetadataURL))
	}
	if s.opts.ChallengeScope != "" && status == http.StatusUnauthorized {
		params = append(params, fmt.Sprintf("scope=%q", s.opts.ChallengeScope))
	}
	params = append(params, extra...)
	value := "Bearer"
	if len(params) > 0 {
		value += " " + strings.Join(params, ", ")
	}
	w.Header().Set("WWW-Authenticate", value)
	http.Error(w, http.StatusText(status), status)
}

// callsStepUpTool reports whether r is a POST whose JSON-RPC body (one
// message or a batch) calls the step-up tool. The body is left readable.
func (s *Server) callsStepUpTool(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var calls []call
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] == '[' {
		_ = json.Unmarshal(body, &calls)
	} else {
		var one call
		if json.Unmarshal(body, &one) == nil {
			calls = []call{one}
		}
	}
	return slices.ContainsFunc(calls, func(c call) bool {
		return c.Method == "tools/call" && c.Params.Name == s.opts.StepUpTool
	})
}
