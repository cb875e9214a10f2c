// Package hartest checks a HAR document against the rules of HAR 1.2
// (http://www.softwareishard.com/blog/har-12-spec/) for mcpscope's tests,
// and returns it decoded for their own assertions.
package hartest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
)

// Log is a decoded HAR log.
type Log struct {
	Version string `json:"version"`
	Creator struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"creator"`
	Comment string  `json:"comment"`
	Entries []Entry `json:"entries"`
}

// Entry is one exchange.
type Entry struct {
	StartedDateTime time.Time `json:"startedDateTime"`
	Time            float64   `json:"time"`
	Request         struct {
		Method      string `json:"method"`
		URL         string `json:"url"`
		HTTPVersion string `json:"httpVersion"`
		Headers     []NV   `json:"headers"`
		QueryString []NV   `json:"queryString"`
		PostData    *struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"postData"`
		BodySize int64 `json:"bodySize"`
	} `json:"request"`
	Response struct {
		Status     int    `json:"status"`
		StatusText string `json:"statusText"`
		Headers    []NV   `json:"headers"`
		Content    struct {
			Size     int64   `json:"size"`
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Encoding string  `json:"encoding"`
		} `json:"content"`
		BodySize int64 `json:"bodySize"`
	} `json:"response"`
	Timings map[string]float64 `json:"timings"`
	Comment string             `json:"comment"`
	Conn    string             `json:"_conn"`
	SSE     *struct {
		Kind   string `json:"kind"`
		State  string `json:"state"`
		Events int64  `json:"events"`
	} `json:"_sse"`
}

// NV is a header or query parameter.
type NV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Header returns the value of the first header named name, or "".
func Header(hs []NV, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// Body returns the response body an entry holds, decoded from base64
// when it is so encoded.
func (e Entry) Body() ([]byte, error) {
	c := e.Response.Content
	if c.Text == nil {
		return nil, nil
	}
	if c.Encoding == "base64" {
		return base64.StdEncoding.DecodeString(*c.Text)
	}
	return []byte(*c.Text), nil
}

// required are the members HAR 1.2 requires of each object, by the path
// of the object.
var required = map[string][]string{
	"log":               {"version", "creator", "entries"},
	"creator":           {"name", "version"},
	"entry":             {"startedDateTime", "time", "request", "response", "cache", "timings"},
	"request":           {"method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"},
	"response":          {"status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"},
	"content":           {"size", "mimeType"},
	"postData":          {"mimeType"},
	"timings":           {"send", "wait", "receive"},
	"header":            {"name", "value"},
	"request.arrays":    {"cookies", "headers", "queryString"},
	"response.arrays":   {"cookies", "headers"},
	"numbers.request":   {"headersSize", "bodySize"},
	"numbers.response":  {"status", "headersSize", "bodySize"},
	"strings.request":   {"method", "url", "httpVersion"},
	"strings.response":  {"statusText", "httpVersion", "redirectURL"},
	"strings.content":   {"mimeType"},
	"strings.creator":   {"name", "version"},
	"strings.entry":     {"startedDateTime"},
	"optional.timings":  {"blocked", "dns", "connect", "ssl"},
	"mandatory.timings": {"send", "wait", "receive"},
}

type obj = map[string]any

// has checks that o holds every member of the list named what.
func has(o obj, what, where string) error {
	for _, k := range required[what] {
		if _, ok := o[k]; !ok {
			return fmt.Errorf("%s lacks %q", where, k)
		}
	}
	return nil
}

// typed checks that the members of the list named what of o are of kind
// (a JSON string, number or array).
func typed(o obj, what, where string, kind func(any) bool, name string) error {
	for _, k := range required[what] {
		if !kind(o[k]) {
			return fmt.Errorf("%s.%s is %T, not a %s", where, k, o[k], name)
		}
	}
	return nil
}

func isString(v any) bool { _, ok := v.(string); return ok }
func isNumber(v any) bool { _, ok := v.(float64); return ok }
func isArray(v any) bool  { _, ok := v.([]any); return ok }

// Check parses doc as a HAR 1.2 document and checks it: the members
// required of every object and their types, version "1.2", entries sorted
// by startedDateTime (RFC 3339), absolute request URLs, header lists of
// name and value, non-negative send, wait and receive, other phases -1 or
// more, time the sum of the phases, base64 content that decodes.
func Check(doc []byte) (*Log, error) {
	var root struct {
		Log obj `json:"log"`
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	l := root.Log
	if l == nil {
		return nil, fmt.Errorf(`no "log" object`)
	}
	if err := has(l, "log", "log"); err != nil {
		return nil, err
	}
	if l["version"] != "1.2" {
		return nil, fmt.Errorf("log.version is %v, not \"1.2\"", l["version"])
	}
	creator, _ := l["creator"].(obj)
	if err := has(creator, "creator", "log.creator"); err != nil {
		return nil, err
	}
	if err := typed(creator, "strings.creator", "log.creator", isString, "string"); err != nil {
		return nil, err
	}
	entries, ok := l["entries"].([]any)
	if !ok {
		return nil, fmt.Errorf("log.entries is not an array")
	}
	var last time.Time
	for i, e := range entries {
		started, err := checkEntry(e, fmt.Sprintf("log.entries[%d]", i))
		if err != nil {
			return nil, err
		}
		if started.Before(last) {
			return nil, fmt.Errorf("log.entries[%d] started before the entry ahead of it", i)
		}
		last = started
	}
	var out struct {
		Log Log `json:"log"`
	}
	if err := json.Unmarshal(doc, &out); err != nil {
		return nil, err
	}
	return &out.Log, nil
}

// checkEntry checks one entry and returns when it started.
func checkEntry(v any, where string) (time.Time, error) {
	e, _ := v.(obj)
	if err := has(e, "entry", where); err != nil {
		return time.Time{}, err
	}
	if err := typed(e, "strings.entry", where, isString, "string"); err != nil {
		return time.Time{}, err
	}
	started, err := time.Parse(time.RFC3339Nano, e["startedDateTime"].(string))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s.startedDateTime: %w", where, err)
	}
	req, _ := e["request"].(obj)
	rsp, _ := e["response"].(obj)
	for _, part := range []struct {
		o    obj
		name string
	}{{req, "request"}, {rsp, "response"}} {
		at := where + "." + part.name
		if err := has(part.o, part.name, at); err != nil {
			return started, err
		}
		if err := firstErr(
			typed(part.o, part.name+".arrays", at, isArray, "array"),
			typed(part.o, "numbers."+part.name, at, isNumber, "number"),
			typed(part.o, "strings."+part.name, at, isString, "string"),
			checkPairs(part.o["headers"], at+".headers"),
		); err != nil {
			return started, err
		}
	}
	if err := checkRequest(req, where+".request"); err != nil {
		return started, err
	}
	if err := checkContent(rsp["content"], where+".response.content"); err != nil {
		return started, err
	}
	if _, ok := e["cache"].(obj); !ok {
		return started, fmt.Errorf("%s.cache is not an object", where)
	}
	return started, checkTimings(e, where)
}

// checkRequest checks a request's URL, query and postData.
func checkRequest(req obj, where string) error {
	u, err := url.Parse(req["url"].(string))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fmt.Errorf("%s.url %q is not absolute", where, req["url"])
	}
	if err := checkPairs(req["queryString"], where+".queryString"); err != nil {
		return err
	}
	if p, ok := req["postData"]; ok {
		po, _ := p.(obj)
		if err := has(po, "postData", where+".postData"); err != nil {
			return err
		}
		_, text := po["text"]
		_, params := po["params"]
		if !text && !params {
			return fmt.Errorf("%s.postData has neither text nor params", where)
		}
	}
	return nil
}

// checkContent checks a response's content.
func checkContent(v any, where string) error {
	c, _ := v.(obj)
	if err := firstErr(has(c, "content", where), typed(c, "strings.content", where, isString, "string")); err != nil {
		return err
	}
	if !isNumber(c["size"]) {
		return fmt.Errorf("%s.size is not a number", where)
	}
	if enc, ok := c["encoding"]; ok {
		text, _ := c["text"].(string)
		if _, err := base64.StdEncoding.DecodeString(text); enc != "base64" || err != nil {
			return fmt.Errorf("%s is encoded %v and does not decode: %v", where, enc, err)
		}
	}
	return nil
}

// checkPairs checks a list of name and value objects.
func checkPairs(v any, where string) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s is not an array", where)
	}
	for i, p := range list {
		o, _ := p.(obj)
		if err := has(o, "header", fmt.Sprintf("%s[%d]", where, i)); err != nil {
			return err
		}
		if !isString(o["name"]) || !isString(o["value"]) {
			return fmt.Errorf("%s[%d] is not a name and value", where, i)
		}
	}
	return nil
}

// checkTimings checks the phases and that time is their sum.
func checkTimings(e obj, where string) error {
	t, _ := e["timings"].(obj)
	if err := has(t, "timings", where+".timings"); err != nil {
		return err
	}
	sum := 0.0
	for _, k := range required["mandatory.timings"] {
		v, ok := t[k].(float64)
		if !ok || v < 0 {
			return fmt.Errorf("%s.timings.%s is %v: send, wait and receive are non-negative numbers", where, k, t[k])
		}
		sum += v
	}
	for _, k := range required["optional.timings"] {
		v, ok := t[k]
		if !ok {
			continue
		}
		f, isNum := v.(float64)
		if !isNum || f < -1 {
			return fmt.Errorf("%s.timings.%s is %v", where, k, v)
		}
		if f > 0 && k != "ssl" { // ssl is part of connect
			sum += f
		}
	}
	total, ok := e["time"].(float64)
	if !ok || math.Abs(total-sum) > 0.0015 {
		return fmt.Errorf("%s.time is %v, the phases add up to %v", where, e["time"], sum)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
