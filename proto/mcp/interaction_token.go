package mcp

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// SessionToken is the session id of a stateless server (seed 002,
// Appendix B): the session's whole state, signed by the server, sent base64
// encoded as the sessionId. Clients treat it as opaque; mcpscope decodes it
// for display only.
type SessionToken struct {
	SessionID string          `json:"sessionId"`
	State     json.RawMessage `json:"state"`
	Signature string          `json:"signature"`
}

// tokenEncodings are the base64 alphabets a token may use, tried in order.
var tokenEncodings = []*base64.Encoding{
	base64.RawURLEncoding, base64.RawStdEncoding,
}

// DecodeSessionToken decodes a session id that is a token of Appendix B:
// base64 (standard or URL alphabet, padded or not) of a JSON object with a
// non-empty sessionId. It reports false for any other id, which is then an
// opaque id. It does not check the signature (see VerifySessionToken).
func DecodeSessionToken(s string) (SessionToken, bool) {
	s = strings.TrimRight(s, "=")
	for _, enc := range tokenEncodings {
		raw, err := enc.DecodeString(s)
		if err != nil {
			continue
		}
		var tok SessionToken
		if err := json.Unmarshal(raw, &tok); err != nil || tok.SessionID == "" {
			return SessionToken{}, false
		}
		return tok, true
	}
	return SessionToken{}, false
}

// SignSessionToken builds a token of Appendix B for sessionID and state:
// the signature is the hex HMAC-SHA256 under key of the canonical JSON of
// {"sessionId","state"} (object keys sorted, no spaces), and the token is
// the unpadded base64url of the JSON of SessionToken.
func SignSessionToken(sessionID string, state any, key []byte) (string, error) {
	if len(key) == 0 {
		return "", errors.New("sign session token: the key is empty")
	}
	raw, err := json.Marshal(state)
	if err != nil {
		return "", fmt.Errorf("sign session token: the state does not encode as JSON: %w", err)
	}
	canonState, err := canonicalJSON(raw)
	if err != nil {
		return "", fmt.Errorf("sign session token: %w", err)
	}
	sig, err := tokenSignature(sessionID, canonState, key)
	if err != nil {
		return "", fmt.Errorf("sign session token: %w", err)
	}
	body, err := json.Marshal(SessionToken{SessionID: sessionID, State: canonState, Signature: sig})
	if err != nil {
		return "", fmt.Errorf("sign session token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(body), nil
}

// VerifySessionToken decodes token and checks its signature under key in
// constant time. It fails when the token does not decode, or when it was
// signed with another key or changed since.
func VerifySessionToken(token string, key []byte) (SessionToken, error) {
	if len(key) == 0 {
		return SessionToken{}, errors.New("verify session token: the key is empty")
	}
	tok, ok := DecodeSessionToken(token)
	if !ok {
		return SessionToken{}, errors.New("verify session token: the token is not base64 JSON with a sessionId")
	}
	got, err := hex.DecodeString(tok.Signature)
	if err != nil {
		return SessionToken{}, errors.New("verify session token: the signature is not hex")
	}
	canonState, err := canonicalJSON(tok.State)
	if err != nil {
		return SessionToken{}, fmt.Errorf("verify session token: %w", err)
	}
	want, err := tokenMAC(tok.SessionID, canonState, key)
	if err != nil {
		return SessionToken{}, fmt.Errorf("verify session token: %w", err)
	}
	if !hmac.Equal(got, want) {
		return SessionToken{}, errors.New("verify session token: the signature does not match")
	}
	return tok, nil
}

// tokenSignature is the hex HMAC-SHA256 of the signed part of a token.
func tokenSignature(sessionID string, canonState json.RawMessage, key []byte) (string, error) {
	mac, err := tokenMAC(sessionID, canonState, key)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(mac), nil
}

// tokenMAC is the HMAC-SHA256 under key of {"sessionId":…,"state":…}, state
// already canonical.
func tokenMAC(sessionID string, canonState json.RawMessage, key []byte) ([]byte, error) {
	signed, err := json.Marshal(struct {
		SessionID string          `json:"sessionId"`
		State     json.RawMessage `json:"state"`
	}{sessionID, canonState})
	if err != nil {
		return nil, fmt.Errorf("the signed part does not encode: %w", err)
	}
	h := hmac.New(sha256.New, key)
	h.Write(signed)
	return h.Sum(nil), nil
}

// canonicalJSON re-encodes raw with object keys sorted and no spaces,
// keeping numbers as written; an absent value is null.
func canonicalJSON(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the state is not JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("the state holds more than one JSON value")
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("the state does not re-encode: %w", err)
	}
	return out, nil
}
