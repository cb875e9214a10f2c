package jsonrpc

import (
	"errors"
	"strings"
	"testing"
)

// deep returns an answer to id 3 whose result is nested n levels deep.
func deep(n int) string {
	return `{"jsonrpc":"2.0","id":3,"result":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"
}

func TestDecodeReportsBrokenEnvelopes(t *testing.T) {
	for _, c := range []struct {
		name, body string
		reason     string // the error's text
		ids        string // the ids the error carries, space-separated
		request    bool
		malformed  bool
	}{
		{"result and error", `{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}`, `it has both "result" and "error"`, "3", false, false},
		{"neither", `{"jsonrpc":"2.0","id":3}`, `it has neither "result" nor "error"`, "3", false, false},
		{"nothing at all", `{"jsonrpc":"2.0"}`, `it has no "method", "result" or "error"`, "", false, false},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"result":{}}`, `"jsonrpc" is "1.0", want "2.0"`, "3", false, false},
		{"jsonrpc missing", `{"id":3,"result":{}}`, `"jsonrpc" is missing, want "2.0"`, "3", false, false},
		{"jsonrpc a number", `{"jsonrpc":2,"id":3,"result":{}}`, `"jsonrpc" is 2, want "2.0"`, "3", false, false},
		{"error null", `{"jsonrpc":"2.0","id":3,"error":null}`, `"error" is null`, "3", false, false},
		{"code with a fraction", `{"jsonrpc":"2.0","id":3,"error":{"code":-32000.5,"message":"x"}}`, `"error"."code" is -32000.5, not an integer`, "3", false, false},
		{"code a string", `{"jsonrpc":"2.0","id":3,"error":{"code":"abc","message":"x"}}`, `"error"."code" is "abc", not an integer`, "3", false, false},
		{"code out of range", `{"jsonrpc":"2.0","id":3,"error":{"code":99999999999999999999,"message":"x"}}`, `"error"."code" is 99999999999999999999, an integer out of range`, "3", false, false},
		{"no code", `{"jsonrpc":"2.0","id":3,"error":{"message":"x"}}`, `"error" has no "code"`, "3", false, false},
		{"error not an object", `{"jsonrpc":"2.0","id":3,"error":"boom"}`, `"error" is "boom", not an object`, "3", false, false},
		{"message not a string", `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":[]}}`, `"error"."message" is [], not a string`, "3", false, false},
		{"trailing garbage", `{"jsonrpc":"2.0","id":3,"result":{}} garbage`, `it has data after the object, at byte offset 37: garbage`, "3", false, false},
		{"two objects", `{"jsonrpc":"2.0","id":3,"result":{}}{"jsonrpc":"2.0","id":4,"result":{}}`, `it has data after the object, at byte offset 36: {"jsonrpc":"2.0","id":4,"result":{}}`, "3", false, false},
		{"duplicate id", `{"jsonrpc":"2.0","id":3,"id":4,"result":{}}`, `it has "id" twice`, "3 4", false, false},
		{"duplicate id, same value", `{"jsonrpc":"2.0","id":3,"id":3,"result":{}}`, `it has "id" twice`, "3 3", false, false},
		{"duplicate id spelled with an escape", `{"jsonrpc":"2.0","id":3,"\u0069d":3,"result":{}}`, `it has "id" twice`, "3 3", false, false},
		{"duplicate result", `{"jsonrpc":"2.0","id":3,"result":1,"result":2}`, `it has "result" twice`, "3", false, false},
		{"duplicate unknown member", `{"jsonrpc":"2.0","id":3,"result":1,"x":1,"x":2}`, `it has "x" twice`, "3", false, false},
		{"nested 100k deep", deep(100000), `it is nested deeper than 10000 levels`, "3", false, false},
		{"nested 10001 deep", deep(MaxJSONDepth), `it is nested deeper than 10000 levels`, "3", false, false},
		{"malformed inside", `{"jsonrpc":"2.0","id":3,"result":{"a":tru}}`, `its JSON is malformed at byte offset 41: invalid character '}' in literal true (expecting 'e')`, "3", false, true},
		{"cut short", `{"jsonrpc":"2.0","id":3,"result":{"a":`, `its JSON ends inside the object`, "3", false, true},
		{"cut inside the id", `{"jsonrpc":"2.0","id":3`, `its JSON ends inside the object`, "", false, true},
		{"missing comma", `{"jsonrpc":"2.0","id":3 "result":{}}`, `its JSON is malformed at byte offset 24: invalid character '"' after object key:value pair`, "3", false, true},
		{"request with a wrong version", `{"jsonrpc":"1.0","id":3,"method":"x"}`, `"jsonrpc" is "1.0", want "2.0"`, "3", true, false},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":7}`, `"method" is 7, not a string`, "3", true, false},
		{"empty method", `{"jsonrpc":"2.0","id":3,"method":""}`, `"method" is empty`, "3", true, false},
		{"id too large", `{"jsonrpc":"2.0","id":123456789012345678901234,"result":{}}`, `id 123456789012345678901234 is an integer too large for the id space (int64)`, "", false, false},
		{"id too large as a float", `{"jsonrpc":"2.0","id":1e30,"result":{}}`, `id 1e30 is an integer too large for the id space (int64)`, "", false, false},
		{"id a fraction", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, `id 1.5 is neither a string nor an integer`, "", false, false},
		{"id an object", `{"jsonrpc":"2.0","id":{},"result":{}}`, `id {} is neither a string nor an integer`, "", false, false},
		{"answer without id", `{"jsonrpc":"2.0","result":{}}`, `the answer has no "id"`, "", false, false},
		{"BOM then a broken answer", "\uFEFF" + `{"jsonrpc":"2.0","id":3,"result":{}} x`, `it has data after the object, at byte offset 40: x`, "3", false, false},
		{"a long value is cut", `{"jsonrpc":"` + strings.Repeat("v", 100) + `","id":"s","result":{}}`, `"jsonrpc" is "` + strings.Repeat("v", 64) + `… (100 bytes, 36 not shown)", want "2.0"`, `"s"`, false, false},
		{"control bytes are shown escaped", `{"jsonrpc":"2.0","id":3,"error":{"code":"\u001b]0;x\u0007","message":"x"}}`, `"error"."code" is "\u001b]0;x\u0007", not an integer`, "3", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := DecodeMessage([]byte(c.body))
			var env *EnvelopeError
			if !errors.As(err, &env) {
				t.Fatalf("err = %v (%T), want an *EnvelopeError", err, err)
			}
			if env.Reason != c.reason || err.Error() != c.reason {
				t.Errorf("reason %q\nwant   %q", env.Reason, c.reason)
			}
			var ids []string
			for _, id := range env.IDs {
				ids = append(ids, id.String())
			}
			if strings.Join(ids, " ") != c.ids || env.Request != c.request || env.Malformed != c.malformed {
				t.Errorf("ids %v request %v malformed %v, want %q %v %v", ids, env.Request, env.Malformed, c.ids, c.request, c.malformed)
			}
			if c.ids == "" {
				if m != nil {
					t.Errorf("a message %+v came back without an id", m)
				}
				return
			}
			if m == nil || m.Violation != err || m.ID.Key() != env.IDs[0].Key() || string(m.Raw) != c.body {
				t.Fatalf("message %+v, want one carrying the violation and the first id", m)
			}
			if m.Kind() != KindInvalid || m.Method != "" || m.Result != nil || m.Error != nil {
				t.Errorf("a violation message holds more than its id: %+v", m)
			}
		})
	}
}

func TestDecodeNotAnObject(t *testing.T) {
	for body, want := range map[string]string{
		`42`:                             "not a JSON-RPC message: the body is a number, not an object",
		` "x"`:                           "not a JSON-RPC message: the body is a string, not an object",
		`[1]`:                            "not a JSON-RPC message: the body is an array, not an object",
		`null`:                           "not a JSON-RPC message: the body is null, not an object",
		`true`:                           "not a JSON-RPC message: the body is a boolean, not an object",
		`Hello, I log to stdout`:         "not a JSON-RPC message: invalid character 'H' looking for beginning of value",
		strings.Repeat("[", 100000):      "not a JSON-RPC message: it is nested deeper than 10000 levels",
		``:                               "not a JSON-RPC message: unexpected end of JSON input",
		"\uFEFF":                         "not a JSON-RPC message: unexpected end of JSON input",
		"\uFEFF\uFEFF{}":                 "not a JSON-RPC message: invalid character 'ï' looking for beginning of value",
		`{"jsonrpc":"2.0","id":3}` + "[": "", // an object: an envelope error, tested above
	} {
		m, err := DecodeMessage([]byte(body))
		var env *EnvelopeError
		if want == "" {
			if !errors.As(err, &env) {
				t.Errorf("%.20q: err = %v, want an envelope error", body, err)
			}
			continue
		}
		if m != nil || err == nil || err.Error() != want || errors.As(err, &env) {
			t.Errorf("%.20q: m=%v err=%v\nwant %s", body, m, err, want)
		}
	}
}

func TestDecodeReadsWellFormedMessages(t *testing.T) {
	for _, c := range []struct {
		body                       string
		kind                       Kind
		id, method, params, result string
		code                       int
		message, data              string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"}}`, KindRequest, "1", "tools/list", `{"cursor":"c"}`, "", 0, "", ""},
		{` { "jsonrpc" : "2.0" , "method" : "notifications/initialized" } `, KindNotification, "", "notifications/initialized", "", "", 0, "", ""},
		{`{"jsonrpc":"2.0","id":"a","result":null}`, KindResult, `"a"`, "", "", "null", 0, "", ""},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"nope","data":{"x":[1]}}}`, KindError, "7", "", "", "", -32601, "nope", `{"x":[1]}`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, KindError, "", "", "", "", -32700, "Parse error", ""},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":1}}`, KindError, "2", "", "", "", 1, "", ""},
		{`{"\u006aSONRPC":"x","jsonrpc":"2\u002e0","\u006dethod":"caf\u00e9","id":1.0}`, KindRequest, "1", "café", "", "", 0, "", ""},
		{"\uFEFF" + `{"jsonrpc":"2.0","id":5,"result":{"ok":true}}`, KindResult, "5", "", "", `{"ok":true}`, 0, "", ""},
		{deep(MaxJSONDepth - 1), KindResult, "3", "", "", strings.Repeat("[", MaxJSONDepth-1) + strings.Repeat("]", MaxJSONDepth-1), 0, "", ""},
	} {
		m, err := DecodeMessage([]byte(c.body))
		if err != nil {
			t.Errorf("%.60s: %v", c.body, err)
			continue
		}
		id := ""
		if m.ID != nil {
			id = m.ID.String()
		}
		got := []any{m.Kind(), id, m.Method, string(m.Params), string(m.Result), string(m.Raw)}
		want := []any{c.kind, c.id, c.method, c.params, c.result, c.body}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%.60s: field %d = %.60v, want %.60v", c.body, i, got[i], want[i])
			}
		}
		if c.kind == KindError && (m.Error.Code != c.code || m.Error.Message != c.message || string(m.Error.Data) != c.data) {
			t.Errorf("%.60s: error %+v", c.body, m.Error)
		}
		if m.Violation != nil {
			t.Errorf("%.60s: Violation %v on a good message", c.body, m.Violation)
		}
	}
}

func TestDecodeJSONBatchKeepsWhatCanBeDelivered(t *testing.T) {
	body := `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":1,"message":"x"}},7,{"jsonrpc":"2.0","method":"n"}]`
	msgs, batch, err := DecodeJSON([]byte(body))
	if !batch || err == nil || err.Error() != `batch item 1: it has both "result" and "error"` {
		t.Fatalf("batch %v err %v", batch, err)
	}
	if len(msgs) != 3 || msgs[0].Kind() != KindResult || msgs[1].Violation == nil || msgs[1].ID.String() != "2" || msgs[2].Kind() != KindNotification {
		t.Fatalf("messages %+v", msgs)
	}
	for _, c := range []struct{ body, want string }{
		{`[{"jsonrpc":"2.0","id":1,"result":{}}`, "batch: unexpected end of JSON input"},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}] x`, "batch: invalid character 'x' after top-level value"},
		{"[" + deep(20000) + "]", "batch: it is nested deeper than 10000 levels"},
		{" [ ] ", "empty batch"},
	} {
		if msgs, _, err := DecodeJSON([]byte(c.body)); err == nil || err.Error() != c.want || len(msgs) != 0 {
			t.Errorf("%.40s: %d messages, err %v, want %s", c.body, len(msgs), err, c.want)
		}
	}
}

func TestNewViolationReadsTheHeadOfACutBody(t *testing.T) {
	cause := errors.New("the line is over the limit")
	for _, c := range []struct {
		head    string
		id      string
		request bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"xxxx`, "7", false},
		{"\uFEFF" + `{"id":"r-1","jsonrpc":"2.0","result":"xxxx`, `"r-1"`, false},
		{`{"jsonrpc":"2.0","method":"x","id":7,"params":{"a":"xxx`, "7", true},
		{`{"jsonrpc":"2.0","id":7`, "", false},
		{`{"jsonrpc":"2.0","id":"unterminated`, "", false},
		{`{"jsonrpc":"2.0","result":{"id":7,"x":"xxx`, "", false},
		{`{"jsonrpc":"2.0","id":99999999999999999999999,"result":"xxx`, "", false},
		{`xxxxxxxxxxxxxx`, "", false},
		{``, "", false},
	} {
		m := NewViolation([]byte(c.head), cause)
		if c.id == "" {
			if m != nil {
				t.Errorf("%s: got %+v, want none", c.head, m)
			}
			continue
		}
		var env *EnvelopeError
		if m == nil || m.ID.String() != c.id || !errors.As(m.Violation, &env) || env.Request != c.request || !errors.Is(m.Violation, cause) || env.Reason != cause.Error() {
			t.Errorf("%s: got %+v, want id %s request %v", c.head, m, c.id, c.request)
		}
	}
}

func TestCheckTextWarnsOfBOMAndInvalidUTF8(t *testing.T) {
	for body, want := range map[string]string{
		`{"a":"é"}`:                "",
		"\uFEFF{}":                 "the message started with a UTF-8 byte order mark, which was skipped",
		"{\"a\":\"x\xff\"}":        "the message had invalid UTF-8 at byte offset 7, read as U+FFFD",
		"\uFEFF{\"a\":\"\xc3\"}":   "the message started with a UTF-8 byte order mark, which was skipped; the message had invalid UTF-8 at byte offset 9, read as U+FFFD",
		"{\"a\":\"\xed\xa0\x80\"}": "the message had invalid UTF-8 at byte offset 6, read as U+FFFD",
	} {
		err := CheckText([]byte(body))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%q: %q\nwant %q", body, got, want)
		}
	}
}

func TestMembersFindDuplicatesPastTheSmallSet(t *testing.T) {
	var s Members
	for i := range 40 {
		s.Add(strings.Repeat("k", i+1))
	}
	if s.Duplicate != "" {
		t.Fatalf("duplicate %q among distinct names", s.Duplicate)
	}
	s.Add("kkk")
	if s.Duplicate != "kkk" {
		t.Fatalf("duplicate %q, want kkk", s.Duplicate)
	}
}

// TestDecodeJSONAllocations: decoding an answer takes no allocation for
// JSON-RPC's member names or for the record of the members met.
func TestDecodeJSONAllocations(t *testing.T) {
	raw := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Hi hello"}]}}`)
	if n := testing.AllocsPerRun(100, func() { _, _, _ = DecodeJSON(raw) }); n > 10 {
		t.Errorf("decoding %s took %.0f allocations, want 10 at most", raw, n)
	}
}
