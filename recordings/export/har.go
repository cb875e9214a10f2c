package export

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/recordings"
)

// HARVersion is the version of the HAR format written.
const HARVersion = "1.2"

// HTTPTransports are the transports whose recordings a HAR holds: every
// exchange of them is an HTTP request and its response.
var HTTPTransports = []string{"http", "sse", "tools-http"}

// NotHTTPError says a recording is not of an HTTP session, so it holds no
// HTTP exchanges for a HAR.
type NotHTTPError struct {
	Transport string // the recording's transport
}

func (e *NotHTTPError) Error() string {
	of := "a session over " + e.Transport
	if e.Transport == "" {
		of = "a session whose transport it does not name"
	}
	return fmt.Sprintf("a HAR holds the exchanges of a session over %s, and this recording is of %s: export it with --format jsonl or --format text",
		strings.Join(HTTPTransports, ", "), of)
}

// HARResult is what a HAR export wrote and what it could not.
type HARResult struct {
	recordings.Damage
	Entries int // exchanges written
	// Warnings say what the HAR left out or cut to stay within its bounds.
	Warnings []string
}

// WriteHAR writes the HTTP exchanges of the recording r to w as a HAR 1.2
// document; creator is the version of mcpscope writing it. A recording of
// a session over another transport gives a *NotHTTPError and writes
// nothing.
func WriteHAR(w io.Writer, r *recordings.Reader, creator string) (HARResult, error) {
	h := r.Header()
	if !slices.Contains(HTTPTransports, h.Transport) {
		return HARResult{}, &NotHTTPError{Transport: h.Transport}
	}
	b := newHARBuilder()
	d, err := recordings.Walk(r, b.record)
	res := HARResult{Damage: d, Entries: len(b.entries)}
	if err != nil {
		return res, err
	}
	res.Warnings = b.warnings()
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := b.write(bw, h, creator, res.Warnings); err != nil {
		return res, err
	}
	if err := bw.Flush(); err != nil {
		return res, fmt.Errorf("writing the export: %w", err)
	}
	return res, nil
}

// warnings says what the export left out.
func (b *harBuilder) warnings() []string {
	var out []string
	if b.left > 0 {
		out = append(out, fmt.Sprintf("%s past the first %d (or past %d MiB of heads, bodies and notes) %s left out of the HAR",
			plural.Count(b.left, "exchange", "exchanges"), len(b.entries), HARBudget>>20, plural.Word(b.left, "is", "are")))
	}
	if b.cut > 0 {
		out = append(out, fmt.Sprintf("%s cut short in the HAR: %s past its %d MiB of heads, bodies and notes", plural.Count(b.cut, "body is", "bodies are"), plural.Word(b.cut, "it went", "they went"), HARBudget>>20))
	}
	if b.stray > 0 {
		out = append(out, fmt.Sprintf("%s to no HTTP request in the recording and %s left out of the HAR", plural.Count(b.stray, "frame belongs", "frames belong"), plural.Word(b.stray, "is", "are")))
	}
	return out
}

// The objects of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/).
// Fields of mcpscope's own start with "_", as the spec asks.
type (
	harCreator struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	harEntry struct {
		StartedDateTime string      `json:"startedDateTime"`
		Time            float64     `json:"time"`
		Request         harRequest  `json:"request"`
		Response        harResponse `json:"response"`
		Cache           struct{}    `json:"cache"`
		Timings         harTimings  `json:"timings"`
		Comment         string      `json:"comment,omitempty"`
		Conn            string      `json:"_conn"`
		SSE             *sseInfo    `json:"_sse,omitempty"`
	}
	harRequest struct {
		Method      string       `json:"method"`
		URL         string       `json:"url"`
		HTTPVersion string       `json:"httpVersion"`
		Cookies     []harNV      `json:"cookies"`
		Headers     []harNV      `json:"headers"`
		QueryString []harNV      `json:"queryString"`
		PostData    *harPostData `json:"postData,omitempty"`
		HeadersSize int          `json:"headersSize"`
		BodySize    int64        `json:"bodySize"`
	}
	harNV struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	harPostData struct {
		MimeType string  `json:"mimeType"`
		Params   []harNV `json:"params"`
		Text     string  `json:"text"`
		Comment  string  `json:"comment,omitempty"`
	}
	harResponse struct {
		Status      int        `json:"status"`
		StatusText  string     `json:"statusText"`
		HTTPVersion string     `json:"httpVersion"`
		Cookies     []harNV    `json:"cookies"`
		Headers     []harNV    `json:"headers"`
		Content     harContent `json:"content"`
		RedirectURL string     `json:"redirectURL"`
		HeadersSize int        `json:"headersSize"`
		BodySize    int64      `json:"bodySize"`
		Comment     string     `json:"comment,omitempty"`
	}
	harContent struct {
		Size     int64   `json:"size"`
		MimeType string  `json:"mimeType"`
		Text     *string `json:"text,omitempty"`
		Encoding string  `json:"encoding,omitempty"`
		Comment  string  `json:"comment,omitempty"`
	}
	harTimings struct {
		Blocked float64 `json:"blocked"`
		DNS     float64 `json:"dns"`
		Connect float64 `json:"connect"`
		Send    float64 `json:"send"`
		Wait    float64 `json:"wait"`
		Receive float64 `json:"receive"`
		SSL     float64 `json:"ssl"`
	}
)

// write writes the document: the log's fields, then its entries one a
// line in the order their requests started.
func (b *harBuilder) write(w io.Writer, h recordings.Header, creator string, warnings []string) error {
	slices.SortStableFunc(b.entries, func(x, y *exchange) int { return x.started.Compare(y.started) })
	comment := fmt.Sprintf("recorded by mcpscope %s from %s over %s, started %s", h.Mcpscope, h.Target, h.Transport, timeText(h.Started))
	if h.Redaction != recordings.RedactNone {
		comment += "; credentials redacted"
	}
	for _, s := range warnings {
		comment += "; " + s
	}
	head, err := json.Marshal(struct {
		Version string     `json:"version"`
		Creator harCreator `json:"creator"`
		Comment string     `json:"comment"`
	}{HARVersion, harCreator{Name: "mcpscope", Version: creator}, comment})
	if err != nil {
		return fmt.Errorf("encoding the export: %w", err)
	}
	// {"log":{…head's fields…,"entries":[ … ]}}
	if _, err := fmt.Fprintf(w, "{\"log\":%s,\"entries\":[", termtext.JSON(head[:len(head)-1])); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	base := baseURL(h.Target)
	for i, ex := range b.entries {
		line, err := json.Marshal(ex.entry(base))
		if err != nil {
			return fmt.Errorf("encoding the export: %w", err)
		}
		sep := ",\n"
		if i == 0 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s%s", sep, termtext.JSON(line)); err != nil {
			return fmt.Errorf("writing the export: %w", err)
		}
		b.entries[i] = nil // its bytes can go
	}
	if _, err := io.WriteString(w, "\n]}}\n"); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	return nil
}

// baseURL is the scheme and host of the recording's target, for a request
// without a Host header. A recording that names no URL gets the host
// unknown.invalid (RFC 2606: a name that never resolves), since a HAR's
// URLs are absolute.
func baseURL(target string) *url.URL {
	u, err := url.Parse(target)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return &url.URL{Scheme: "http", Host: "unknown.invalid"}
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}
}

// entry is the HAR entry of the exchange.
func (ex *exchange) entry(base *url.URL) harEntry {
	e := harEntry{StartedDateTime: timeText(ex.started), Conn: ex.conn, SSE: ex.sse, Comment: strings.Join(ex.notes, "; ")}
	e.Request = ex.request(base)
	e.Response = ex.response()
	var total time.Duration
	e.Timings, total = ex.timings()
	e.Time = ms(total)
	return e
}

// request is the HAR request of the exchange.
func (ex *exchange) request(base *url.URL) harRequest {
	r := harRequest{Method: ex.req.method, URL: requestURL(base, ex.req), HTTPVersion: ex.req.version,
		Cookies: []harNV{}, Headers: pairs(ex.req.headers), QueryString: query(ex.req.target), HeadersSize: -1, BodySize: ex.bodyLen}
	if ex.bodyLen > 0 {
		p := &harPostData{MimeType: headerValue(ex.req.headers, "Content-Type"), Params: []harNV{}, Text: string(ex.body)}
		if !utf8.Valid(ex.body) {
			p.Text = strings.ToValidUTF8(p.Text, "\uFFFD")
			p.Comment = "the body is not UTF-8: each invalid byte is shown as U+FFFD"
		}
		if int64(len(ex.body)) < ex.bodyLen {
			p.Comment = strings.TrimPrefix(p.Comment+fmt.Sprintf("; cut to %d of its %d bytes", len(ex.body), ex.bodyLen), "; ")
		}
		r.PostData = p
	}
	return r
}

// requestURL is the absolute URL of the request: its target under the
// scheme of the recording's target and the request's Host. A target or
// Host that makes no URL (a broken head) is put under the recording's
// target, escaped.
func requestURL(base *url.URL, h requestHead) string {
	u := h.target
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		host := headerValue(h.headers, "Host")
		if host == "" {
			host = base.Host
		}
		u = base.Scheme + "://" + host + h.target
	}
	if p, err := url.Parse(u); err == nil && p.Host != "" {
		return u
	}
	return (&url.URL{Scheme: base.Scheme, Host: base.Host, Path: "/" + strings.TrimPrefix(h.target, "/")}).String()
}

// query returns the parameters of a request target's query, in order.
func query(target string) []harNV {
	out := []harNV{}
	_, q, ok := strings.Cut(target, "?")
	if !ok {
		return out
	}
	q, _, _ = strings.Cut(q, "#")
	for _, kv := range strings.Split(q, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, harNV{Name: unescape(k), Value: unescape(v)})
	}
	return out
}

// unescape decodes a query component, or returns it as it is when it is
// not well escaped.
func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// pairs turns header lines into HAR headers.
func pairs(hs []httphead.HTTPHeader) []harNV {
	out := make([]harNV, 0, len(hs))
	for _, h := range hs {
		out = append(out, harNV{Name: h.Name, Value: h.Value})
	}
	return out
}

// response is the HAR response of the exchange: status 0 and no headers
// when none came (the request failed), as browsers write it.
func (ex *exchange) response() harResponse {
	r := harResponse{Cookies: []harNV{}, Headers: []harNV{}, HeadersSize: -1, BodySize: ex.size}
	if ex.rsp != nil {
		r.Status, r.StatusText, r.HTTPVersion = ex.rsp.status, ex.rsp.statusText, ex.rsp.version
		r.Headers = pairs(ex.rsp.headers)
		r.RedirectURL = headerValue(ex.rsp.headers, "Location")
		r.Content.MimeType = headerValue(ex.rsp.headers, "Content-Type")
	} else {
		r.Comment = "no response was received"
		r.BodySize = -1
	}
	r.Content.Size = ex.size
	if ex.hasBody {
		if utf8.Valid(ex.content) {
			s := string(ex.content)
			r.Content.Text = &s
		} else {
			s := base64.StdEncoding.EncodeToString(ex.content)
			r.Content.Text, r.Content.Encoding = &s, "base64"
		}
	}
	if ex.cut {
		r.Content.Comment = fmt.Sprintf("holds %d of the body's %d bytes: the recording or the export kept no more", len(ex.content), ex.size)
	}
	return r
}

// timings are the exchange's phases from its frames' times: send from
// the request head to the last frame sent, wait until the response head,
// receive until the last frame of the response (the end of an SSE
// stream). Phases mcpscope does not see (blocked, dns, connect, ssl) are
// -1. Without a response, wait runs until the exchange's last frame.
// total is the sum of the phases, the entry's time.
func (ex *exchange) timings() (t harTimings, total time.Duration) {
	t = harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1}
	send, wait, receive := span(ex.started, ex.sent), time.Duration(0), time.Duration(0)
	if ex.rsp == nil {
		wait = span(ex.sent, ex.last)
	} else {
		wait, receive = span(ex.sent, ex.answered), span(ex.answered, ex.last)
	}
	t.Send, t.Wait, t.Receive = ms(send), ms(wait), ms(receive)
	return t, send + wait + receive
}

// span is the time from a to b to the microsecond; never negative.
func span(a, b time.Time) time.Duration {
	return max(0, b.Sub(a).Round(time.Microsecond))
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
