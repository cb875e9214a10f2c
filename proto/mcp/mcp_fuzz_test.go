package mcp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzServerCapabilities: any input decodes or fails cleanly, and what
// decodes survives a re-encode unchanged.
func FuzzServerCapabilities(f *testing.F) {
	for _, s := range []string{`{}`, `{"tools":{"listChanged":true},"x":1}`, `{"logging":null}`, `[]`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c ServerCapabilities
		if json.Unmarshal(b, &c) != nil {
			return
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("re-encoding %s: %v", b, err)
		}
		var again ServerCapabilities
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		out2, _ := json.Marshal(again)
		if string(out) != string(out2) {
			t.Fatalf("not stable: %s then %s", out, out2)
		}
	})
}

// FuzzClientCapabilities is FuzzServerCapabilities for the client side.
func FuzzClientCapabilities(f *testing.F) {
	for _, s := range []string{`{}`, `{"elicitation":{"form":{}},"y":[1]}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c ClientCapabilities
		if json.Unmarshal(b, &c) != nil {
			return
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("re-encoding %s: %v", b, err)
		}
		var again ClientCapabilities
		if err := json.Unmarshal(out, &again); err != nil || !reflect.DeepEqual(len(again.Unknown), len(c.Unknown)) {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
	})
}

// FuzzDecodeInputRequired: no input panics; an accepted input request
// always names its method.
func FuzzDecodeInputRequired(f *testing.F) {
	for _, s := range []string{`{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}}}`, `{}`, `1`, `{"inputRequests":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ir, err := DecodeInputRequired(b)
		if err != nil {
			return
		}
		for _, k := range ir.InputKeys() {
			if ir.InputRequests[k].Method == "" {
				t.Fatalf("input %q without method accepted", k)
			}
		}
	})
}

// FuzzDiscoverResult: no input panics the discover decoder.
func FuzzDiscoverResult(f *testing.F) {
	f.Add([]byte(`{"supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r DiscoverResult
		if json.Unmarshal(b, &r) != nil {
			return
		}
		r.ServerInfo()
		r.Supports(Modern)
	})
}

// FuzzListSkillsResult: no skills/list answer panics the decoder, and a
// decoded one survives a re-encode unchanged.
func FuzzListSkillsResult(f *testing.F) {
	for _, s := range []string{`{"skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},` +
		`"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":3}]}],"nextCursor":"c","ttlMs":0}`,
		`{"skills":[{"uri":"u","resources":"dynamic"}]}`, `{"skills":[{"resources":"static"}]}`, `{"skills":null}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r ListSkillsResult
		if json.Unmarshal(b, &r) != nil {
			return
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("re-encoding %s: %v", b, err)
		}
		var again ListSkillsResult
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		if out2, _ := json.Marshal(again); string(out) != string(out2) {
			t.Fatalf("not stable: %s then %s", out, out2)
		}
	})
}
