package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestReadCacheHint(t *testing.T) {
	cases := []struct {
		result, text string
		hasTTL       bool
		problem      bool
	}{
		{`{"tools":[],"ttlMs":60000,"cacheScope":"public"}`, "cached 60 s, public", true, false},
		{`{"ttlMs":0,"cacheScope":"public"}`, "stale at once, public", true, false},
		{`{"ttlMs":250,"cacheScope":"private"}`, "cached 250 ms, private", true, false},
		{`{"ttlMs":300000}`, "cached 5m0s, public (by default)", true, false},
		{`{"ttlMs":6e4}`, "cached 60 s, public (by default)", true, false},
		{`{"cacheScope":"private"}`, "cache scope private", false, false},
		{`{"ttlMs":-5}`, "cache scope public (by default) (ttlMs -5 is negative)", false, true},
		{`{"ttlMs":1.5}`, "cache scope public (by default) (ttlMs 1.5 is not a whole number of milliseconds)", false, true},
		{`{"ttlMs":99999999999999999999999}`, "cache scope public (by default) (ttlMs 99999999999999999999999 is too large)", false, true},
		{`{"ttlMs":1e400}`, "", false, true},
		{`{"ttlMs":"60000"}`, "cache scope public (by default) (ttlMs is not a number)", false, true},
		{`{"ttlMs":9223372036854775807}`, "", false, true},
		{`{"ttlMs":31536000000}`, "cached 365 days, public (by default)", true, false},
		{`{"cacheScope":7}`, "", false, true},
		{`{"tools":[]}`, "no cache hint", false, false},
		{`not json`, "no cache hint", false, false},
	}
	for _, c := range cases {
		h := ReadCacheHint(json.RawMessage(c.result))
		if c.text != "" && h.Text() != c.text {
			t.Errorf("%s: %q, want %q", c.result, h.Text(), c.text)
		}
		if h.HasTTL != c.hasTTL || (h.Problem != "") != c.problem {
			t.Errorf("%s: %+v", c.result, h)
		}
	}
}

// An unknown cacheScope is shown escaped and cut: a server's bytes never
// reach the terminal raw.
func TestCacheHintScopeIsEscaped(t *testing.T) {
	scope := "\x1b[2J\x1b]0;pwned\x07\u202e" + strings.Repeat("x", 1000)
	raw, _ := json.Marshal(map[string]any{"ttlMs": 1000, "cacheScope": scope})
	text := ReadCacheHint(raw).Text()
	if strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\u202e' }) || len(text) > 400 {
		t.Errorf("text %q", text)
	}
}

func TestCacheHintStaleAndMin(t *testing.T) {
	h := ReadCacheHint(json.RawMessage(`{"ttlMs":60000,"cacheScope":"public"}`))
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	if h.StaleAt(at, at.Add(time.Minute)) || !h.StaleAt(at, at.Add(61*time.Second)) {
		t.Error("a 60 s hint is fresh for 60 s, then stale")
	}
	page2 := ReadCacheHint(json.RawMessage(`{"ttlMs":1000,"cacheScope":"private"}`))
	if m := h.Min(page2); m.TTL != time.Second || m.Scope != CacheScopePrivate {
		t.Errorf("min %+v", m)
	}
	if m := h.Min(CacheHint{}); m != h {
		t.Errorf("min with none %+v", m)
	}
}

func TestReadToolApp(t *testing.T) {
	a, ok := ReadToolApp(json.RawMessage(`{"ui":{"resourceUri":"ui://w/view.html","visibility":["app"]},"ui/resourceUri":"ui://w/view.html"}`))
	if !ok || a.ResourceURI != "ui://w/view.html" || strings.Join(a.VisibleTo(), ",") != "app" || a.Legacy {
		t.Errorf("%+v %v", a, ok)
	}
	a, ok = ReadToolApp(json.RawMessage(`{"ui/resourceUri":"ui://old"}`))
	if !ok || a.ResourceURI != "ui://old" || !a.Legacy || strings.Join(a.VisibleTo(), ",") != "model,app" {
		t.Errorf("legacy %+v %v", a, ok)
	}
	for _, meta := range []string{``, `null`, `{}`, `{"ui":{}}`, `{"ui":"x"}`, `{"ui/resourceUri":7}`, `[1]`} {
		if _, ok := ReadToolApp(json.RawMessage(meta)); ok {
			t.Errorf("%s read as an app", meta)
		}
	}
}

func TestReadAppResource(t *testing.T) {
	r, ok := ReadAppResource(json.RawMessage(`{"ui":{"csp":{"connectDomains":["https://a"],"baseUriDomains":["https://b"]},
		"permissions":{"microphone":{},"camera":{}},"domain":"x.example","prefersBorder":false}}`))
	if !ok || r.CSP.ConnectDomains[0] != "https://a" || r.CSP.BaseURIDomains[0] != "https://b" || r.Domain != "x.example" ||
		strings.Join(r.PermissionNames(), ",") != "camera,microphone" || r.PrefersBorder == nil || *r.PrefersBorder {
		t.Errorf("%+v %v", r, ok)
	}
	if _, ok := ReadAppResource(json.RawMessage(`{"other":1}`)); ok {
		t.Error("no _meta.ui read as an app resource")
	}
}

// Each member of the app metadata is read on its own: one of the wrong
// type is a problem line, and the rest is still read.
func TestReadAppMetaMemberByMember(t *testing.T) {
	r, ok := ReadAppResource(json.RawMessage(`{"ui":{"csp":{"connectDomains":"https://a","resourceDomains":["https://r"]},
		"permissions":{"camera":{}},"prefersBorder":"yes","domain":"d.example"}}`))
	if !ok || r.CSP.ConnectDomains != nil || r.CSP.ResourceDomains[0] != "https://r" || strings.Join(r.PermissionNames(), ",") != "camera" ||
		r.Domain != "d.example" || r.PrefersBorder != nil || strings.Join(r.Problems, "|") !=
		"_meta.ui.csp.connectDomains is not an array of strings (a string)|_meta.ui.prefersBorder is not a boolean (a string)" {
		t.Errorf("resource: %+v %v", r, ok)
	}
	a, ok := ReadToolApp(json.RawMessage(`{"ui":{"resourceUri":"ui://w","visibility":"app"},"ui/resourceUri":"ui://old"}`))
	if !ok || a.ResourceURI != "ui://w" || a.Legacy || strings.Join(a.VisibleTo(), ",") != "model,app" || strings.Join(a.Problems, "|") !=
		`_meta.ui.visibility is not an array of strings (a string)|_meta["ui/resourceUri"] names "ui://old", not _meta.ui.resourceUri's` {
		t.Errorf("tool: %+v %v", a, ok)
	}
	a, ok = ReadToolApp(json.RawMessage(`{"ui":{"resourceUri":"https://w.example/app.html","visibility":["app",1]}}`))
	if !ok || a.Visibility != nil || strings.Join(a.Problems, "|") !=
		"_meta.ui.visibility is not an array of strings (an array)|the resource URI is not a ui:// URI" {
		t.Errorf("not ui://: %+v %v", a, ok)
	}
}

// VersionNamed: initialize's result and a 2026-07-28 request name the
// session's version; server/discover, a probe, names none.
func TestVersionNamed(t *testing.T) {
	meta := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`)
	id := jsonrpc.IntID(1)
	for _, c := range []struct {
		m          *jsonrpc.Message
		fromServer bool
		want       string
	}{
		{&jsonrpc.Message{ID: &id, Method: MethodToolsList, Params: meta}, false, "2026-07-28"},
		{&jsonrpc.Message{ID: &id, Method: MethodDiscover, Params: meta}, false, ""},
		{&jsonrpc.Message{ID: &id, Result: json.RawMessage(`{"protocolVersion":"2025-11-25"}`)}, true, "2025-11-25"},
		{&jsonrpc.Message{ID: &id, Result: json.RawMessage(`{"content":[{"type":"text","text":"protocolVersion"}]}`)}, true, ""},
		{&jsonrpc.Message{Method: MethodNotifyMessage, Params: meta}, false, ""},
		{nil, true, ""},
	} {
		if got := VersionNamed(c.m, c.fromServer); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
	asks := DeprecatedAsks("2026-07-28", json.RawMessage(`{"resultType":"input_required","inputRequests":{"b":{"method":"roots/list"},"a":{"method":"elicitation/create"},"c":{"method":"sampling/createMessage"}}}`))
	if len(asks) != 2 || asks[0] != (InputAsk{"b", MethodRootsList}) || asks[1].Method != MethodSamplingCreateMessage {
		t.Errorf("asks %+v", asks)
	}
}

// FuzzInputAsks: no result panics the input request reader.
func FuzzInputAsks(f *testing.F) {
	f.Add([]byte(`{"inputRequests":{"a":{"method":"roots/list"}}}`))
	f.Add([]byte(`{"inputRequests":[1]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = DeprecatedAsks(DeprecatedSince, b)
		_ = VersionNamed(&jsonrpc.Message{Result: b}, true)
	})
}

func TestDeprecatedFeature(t *testing.T) {
	for _, c := range []struct {
		version, method, feature string
	}{
		{"2026-07-28", MethodRootsList, "roots"},
		{"2026-07-28", MethodSamplingCreateMessage, "sampling"},
		{"2026-07-28", MethodLoggingSetLevel, "logging"},
		{"2026-07-28", MethodNotifyMessage, "logging"},
		{"2027-01-01", MethodNotifyRootsListChanged, "roots"},
		{"2025-11-25", MethodNotifyMessage, ""},
		{"2026-07-28", MethodToolsCall, ""},
		{"", MethodRootsList, ""},
		{"9999", MethodRootsList, ""},
	} {
		f, instead, ok := DeprecatedFeature(c.version, c.method)
		if f != c.feature || ok != (c.feature != "") || ok && instead == "" {
			t.Errorf("%s %s: %q %v", c.version, c.method, f, ok)
		}
	}
}

// FuzzReadCacheHint: any result decodes to a hint whose text is printable
// and bounded.
func FuzzReadCacheHint(f *testing.F) {
	for _, s := range []string{`{"ttlMs":60000,"cacheScope":"public"}`, `{"ttlMs":-1}`, `{"ttlMs":1e999}`, `{"cacheScope":"\u001b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text := ReadCacheHint(b).Text()
		if len(text) > 600 || strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 || !unicode.IsPrint(r) && r != ' ' }) {
			t.Fatalf("text %q", text)
		}
	})
}

// FuzzReadAppMeta: a tool's or a UI resource's _meta never panics.
func FuzzReadAppMeta(f *testing.F) {
	f.Add([]byte(`{"ui":{"resourceUri":"ui://a","visibility":["model"]}}`))
	f.Add([]byte(`{"ui":{"csp":{"connectDomains":["\u001b[2J"]},"permissions":{"camera":{}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if a, ok := ReadToolApp(b); ok && a.ResourceURI == "" {
			t.Fatal("an app without a resource URI")
		}
		if r, ok := ReadAppResource(b); ok {
			_ = r.PermissionNames()
		}
	})
}
