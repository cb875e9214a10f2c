package mcp

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// testKey signs the tokens of these tests.
var testKey = []byte("0123456789abcdef0123456789abcdef")

// TestSessionTokenRoundTrip signs a state and verifies it back.
func TestSessionTokenRoundTrip(t *testing.T) {
	state := map[string]any{"step": 2, "data": map[string]any{"z": "last", "a": "first"}}
	tok, err := SignSessionToken("session_abc123", state, testKey)
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifySessionToken(tok, testKey)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if got.SessionID != "session_abc123" || string(got.State) != `{"data":{"a":"first","z":"last"},"step":2}` || len(got.Signature) != 64 {
		t.Fatalf("verified %+v", got)
	}
	dec, ok := DecodeSessionToken(tok)
	if !ok || dec.Signature != got.Signature {
		t.Fatalf("decode: %+v %v", dec, ok)
	}
}

// TestSessionTokenRejects: a wrong key, a changed state, id or signature,
// and an empty key all fail.
func TestSessionTokenRejects(t *testing.T) {
	tok, err := SignSessionToken("s1", map[string]int{"step": 1}, testKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifySessionToken(tok, []byte("another key")); err == nil {
		t.Error("a token verified under another key")
	}
	dec, _ := DecodeSessionToken(tok)
	reencode := func(st SessionToken) string {
		b, _ := json.Marshal(st)
		return base64.StdEncoding.EncodeToString(b)
	}
	if _, err := VerifySessionToken(reencode(dec), testKey); err != nil {
		t.Errorf("the same token in std base64 fails: %v", err)
	}
	tampered := []SessionToken{dec, dec, dec, dec}
	tampered[0].State = json.RawMessage(`{"step":2}`)
	tampered[1].SessionID = "s2"
	tampered[2].Signature = strings.Repeat("0", 64)
	tampered[3].Signature = "not hex"
	for i, st := range tampered {
		if _, err := VerifySessionToken(reencode(st), testKey); err == nil {
			t.Errorf("tampered token %d verified", i)
		}
	}
	if _, err := VerifySessionToken("session_abc123", testKey); err == nil {
		t.Error("an opaque id verified")
	}
	if _, err := SignSessionToken("s", 1, nil); err == nil {
		t.Error("signing with an empty key succeeded")
	}
	if _, err := VerifySessionToken(tok, nil); err == nil {
		t.Error("verifying with an empty key succeeded")
	}
	if _, err := SignSessionToken("s", func() {}, testKey); err == nil {
		t.Error("signing a state that is not JSON succeeded")
	}
}

// TestDecodeSessionTokenForms: every base64 form decodes, opaque ids do not.
func TestDecodeSessionTokenForms(t *testing.T) {
	body := []byte(`{"sessionId":"session_abc123","state":{"k":"~~~?"},"signature":"ab"}`)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		s := enc.EncodeToString(body)
		tok, ok := DecodeSessionToken(s)
		if !ok || tok.SessionID != "session_abc123" || string(tok.State) != `{"k":"~~~?"}` || tok.Signature != "ab" {
			t.Errorf("%q: %+v %v", s, tok, ok)
		}
	}
	for _, s := range []string{"", "session_abc123", "c2Vzc2lvbg", base64.StdEncoding.EncodeToString([]byte(`{"state":{}}`)), base64.StdEncoding.EncodeToString([]byte(`[1]`))} {
		if tok, ok := DecodeSessionToken(s); ok {
			t.Errorf("opaque id %q decoded as %+v", s, tok)
		}
	}
}

// FuzzDecodeSessionToken: any id decodes or is opaque, never panics; what
// decodes has a session id, and what verifies was signed with the key.
func FuzzDecodeSessionToken(f *testing.F) {
	tok, _ := SignSessionToken("s", map[string]any{"a": 1}, testKey)
	for _, s := range []string{tok, "session_abc123", "", "e30", "eyJzZXNzaW9uSWQiOiJ4In0=", "====", "eyJzZXNzaW9uSWQiOiJ4Iiwic3RhdGUiOjF9", upperHexToken(tok)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dec, ok := DecodeSessionToken(s)
		if ok && dec.SessionID == "" {
			t.Fatalf("%q decoded without a session id", s)
		}
		if !ok && dec.SessionID != "" {
			t.Fatalf("%q is opaque but returned %+v", s, dec)
		}
		if v, err := VerifySessionToken(s, testKey); err == nil {
			again, err := SignSessionToken(v.SessionID, v.State, testKey)
			if err != nil {
				t.Fatalf("re-signing %q: %v", s, err)
			}
			// hex.DecodeString reads either case, so a signature that
			// verifies may differ from the re-signed one only in case.
			if w, _ := DecodeSessionToken(again); !strings.EqualFold(w.Signature, v.Signature) {
				t.Fatalf("%q verified but re-signs differently", s)
			}
		}
	})
}

// FuzzInteractionJSON: prompt and params JSON decode or fail cleanly, and
// what decodes re-encodes stably.
func FuzzInteractionJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"text","message":"m","validation":{"required":true,"pattern":"^a$","min":1,"max":2}}`,
		`{"sessionId":"s","prompt":{"type":"choice","message":"m","choices":[{"value":"a"}]},"progress":{"current":1}}`,
		`{"sessionId":"s","nextPrompt":null,"message":"expires","expiresAt":1}`,
		`{"sessionId":"s","result":{"x":1},"summary":"done"}`,
		`{"accepted":false,"validation":{"valid":false}}`, `null`, `[]`, `{"type":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, mk := range []func() any{
			func() any { return &InteractionPrompt{} },
			func() any { return &InteractionPromptParams{} },
			func() any { return &InteractionContinueParams{} },
			func() any { return &InteractionCompleteParams{} },
			func() any { return &InteractionStartResult{} },
			func() any { return &InteractionRespondResult{} },
			func() any { return &InteractionStateResult{} },
		} {
			v := mk()
			if json.Unmarshal(b, v) != nil {
				continue
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("re-encoding %s as %T: %v", b, v, err)
			}
			again := mk()
			if err := json.Unmarshal(out, again); err != nil {
				t.Fatalf("re-decoding %s as %T: %v", out, v, err)
			}
			if out2, _ := json.Marshal(again); string(out2) != string(out) {
				t.Fatalf("%T not stable: %s then %s", v, out, out2)
			}
		}
	})
}

// upperHexToken is tok with its signature in upper-case hex, which still
// verifies.
func upperHexToken(tok string) string {
	dec, _ := DecodeSessionToken(tok)
	raw, _ := json.Marshal(SessionToken{SessionID: dec.SessionID, State: dec.State, Signature: strings.ToUpper(dec.Signature)})
	return base64.RawURLEncoding.EncodeToString(raw)
}
