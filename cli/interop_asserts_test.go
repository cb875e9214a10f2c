package cli

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Assertions the interoperability tests share: what a listing, a
// cancellation, progress, a server's question or a result must look like
// on the wire and on stdout.

// assertAllPages checks that the listing on stdout holds exactly the items
// of every page of method on the wire, in order, that each page after the
// first asked for the previous page's nextCursor, and returns their names.
func assertAllPages(t *testing.T, p peerRun, method, field string) []string {
	t.Helper()
	var onWire []string
	cursor := ""
	for i, req := range p.requests(method) {
		var asked struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &asked)
		if asked.Cursor != cursor {
			t.Errorf("%s page %d asked for cursor %q, want %q", method, i+1, asked.Cursor, cursor)
		}
		var page map[string]json.RawMessage
		var items []struct{ Name string }
		res := p.responseTo(t, req.ID)
		if json.Unmarshal(res.Result, &page) != nil || json.Unmarshal(page[field], &items) != nil {
			t.Fatalf("%s page %d: %s", method, i+1, res.Raw)
		}
		for _, it := range items {
			onWire = append(onWire, it.Name)
		}
		cursor = ""
		_ = json.Unmarshal(page["nextCursor"], &cursor)
	}
	if cursor != "" {
		t.Errorf("%s stopped before the last page (nextCursor %q)", method, cursor)
	}
	var doc map[string][]struct{ Name string }
	decodeStdout(t, p.result, &doc)
	var listed []string
	for _, it := range doc[field] {
		listed = append(listed, it.Name)
	}
	if len(listed) == 0 || !slices.Equal(listed, onWire) {
		t.Errorf("stdout lists %v, the pages on the wire held %v", listed, onWire)
	}
	return listed
}

// assertCancelled checks that exactly one notifications/cancelled names
// req, after it on the wire, with reason, and that --trace showed it. A
// short --timeout may also have cancelled the server/discover probe of a
// slow-starting server (the engine then falls back to initialize); any
// other cancellation is an error.
func assertCancelled(t *testing.T, p peerRun, req wireMsg, reason string) {
	t.Helper()
	probes := map[string]bool{}
	for _, d := range p.requests("server/discover") {
		probes[string(d.ID)] = true
	}
	found, after := 0, false
	for _, m := range p.wire {
		after = after || (m.Out && string(m.ID) == string(req.ID) && m.Method == req.Method)
		if !m.Out || m.Method != "notifications/cancelled" {
			continue
		}
		var n struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		switch {
		case json.Unmarshal(m.Params, &n) != nil:
			t.Errorf("malformed cancellation %s", m.Raw)
		case string(n.RequestID) == string(req.ID):
			found++
			if !after || n.Reason != reason {
				t.Errorf("cancellation %s: before its request, or not for %q", m.Raw, reason)
			}
		case probes[string(n.RequestID)]:
			t.Logf("the server/discover probe timed out too: %s", m.Raw)
		default:
			t.Errorf("cancellation of a request nobody gave up on: %s", m.Raw)
		}
	}
	if found != 1 {
		t.Fatalf("%d notifications/cancelled name request %s: %s", found, req.ID, p.wireDump())
	}
	if !regexpMatch(`(?m)^\S+ → control \d+B notification notifications/cancelled$`, p.stderr) {
		t.Errorf("--trace does not show the cancellation:\n%s", p.stderr)
	}
}

// serverRequest returns the only request of method the server sent.
func serverRequest(t *testing.T, p peerRun, method string) wireMsg {
	t.Helper()
	var found []wireMsg
	for _, m := range p.wire {
		if !m.Out && m.isRequest() && m.Method == method {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the server sent %s %d times: %s", method, len(found), p.wireDump())
	}
	return found[0]
}

// answerTo returns mcpscope's answer to a request from the server.
func answerTo(t *testing.T, p peerRun, req wireMsg) wireMsg {
	t.Helper()
	for _, m := range p.wire {
		if m.Out && m.Method == "" && string(m.ID) == string(req.ID) {
			return m
		}
	}
	t.Fatalf("mcpscope never answered %s", req.Raw)
	return wireMsg{}
}

// resourceContents is one item of a resources/read result.
type resourceContents struct {
	URI, MimeType, Text string
	Blob                string
}

// text returns the text of the contents, decoding a blob.
func (c resourceContents) text(t *testing.T) string {
	t.Helper()
	if c.Blob == "" {
		return c.Text
	}
	b, err := base64.StdEncoding.DecodeString(c.Blob)
	if err != nil {
		t.Fatalf("the blob of %s is not base64: %v", c.URI, err)
	}
	return string(b)
}

// readResource reads uri and returns its only contents, checking it names uri.
func readResource(t *testing.T, argv []string, uri string) resourceContents {
	t.Helper()
	var res struct{ Contents []resourceContents }
	decodeStdout(t, runPeer(t, argv, "call", "resources/read", jsonArg(t, map[string]string{"uri": uri})).result, &res)
	if len(res.Contents) != 1 || res.Contents[0].URI != uri || res.Contents[0].Text+res.Contents[0].Blob == "" {
		t.Fatalf("resources/read %s: %+v", uri, res)
	}
	return res.Contents[0]
}

// complete asks completion/complete for the argument arg of ref, typed so
// far as value (with the other arguments in context, if any), checks that
// every value offered starts with it, and returns them: at least one.
func complete(t *testing.T, argv []string, ref map[string]any, arg, value string, context map[string]string) []string {
	t.Helper()
	req := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
	if context != nil {
		req["context"] = map[string]any{"arguments": context}
	}
	var res struct {
		Completion struct{ Values []string } `json:"completion"`
	}
	decodeStdout(t, runPeer(t, argv, "call", "completion/complete", jsonArg(t, req)).result, &res)
	for _, v := range res.Completion.Values {
		if !strings.HasPrefix(v, value) {
			t.Errorf("completion of %s=%q offers %q", arg, value, v)
		}
	}
	if len(res.Completion.Values) == 0 {
		t.Fatalf("no completion for %s=%q", arg, value)
	}
	return res.Completion.Values
}

// toolResult is the part of a tools/call result the tests read.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// toolText returns the text blocks of a successful tools/call result printed
// on stdout, joined by newlines.
func toolText(t *testing.T, r result) string {
	t.Helper()
	r.mustExit(t, ExitOK)
	var res toolResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("stdout is not a tools/call result: %v\n%s", err, r.stdout)
	}
	if res.IsError {
		t.Fatalf("the tool failed: %s", r.stdout)
	}
	var texts []string
	for _, c := range res.Content {
		if c.Type == "text" {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// decodeStdout decodes the result JSON on stdout of a successful run into v.
func decodeStdout(t *testing.T, r result, v any) {
	t.Helper()
	r.mustExit(t, ExitOK)
	if err := json.Unmarshal([]byte(r.stdout), v); err != nil {
		t.Fatalf("stdout is not the expected JSON: %v\n%s", err, r.stdout)
	}
}

// jsonArg renders v as a PARAMS_JSON argument.
func jsonArg(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// callTool returns the PARAMS_JSON of a tools/call.
func callTool(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	p := map[string]any{"name": name}
	if args != nil {
		p["arguments"] = args
	}
	return jsonArg(t, p)
}

// regexpMatch reports whether s matches the pattern.
func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

// progressLines checks that every notifications/progress on the wire is for
// req's progress token, which must be req's id, and returns the stderr lines
// --progress should print for those that came before req's response, in
// order. (Progress after the response has nothing left to report on.)
func progressLines(t *testing.T, p peerRun, req wireMsg) []string {
	t.Helper()
	var sent struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(req.Params, &sent) != nil || string(sent.Meta.ProgressToken) != string(req.ID) {
		t.Errorf("the request carries progress token %s, want its id %s", sent.Meta.ProgressToken, req.ID)
	}
	answered := false
	var lines []string
	for _, m := range p.wire {
		answered = answered || (!m.Out && m.Method == "" && string(m.ID) == string(req.ID))
		if m.Method != "notifications/progress" {
			continue
		}
		var n struct {
			ProgressToken json.RawMessage `json:"progressToken"`
			Progress      float64         `json:"progress"`
			Total         float64         `json:"total"`
			Message       string          `json:"message"`
		}
		if json.Unmarshal(m.Params, &n) != nil || string(n.ProgressToken) != string(req.ID) {
			t.Errorf("progress for another token: %s (request id %s)", m.Raw, req.ID)
		}
		if answered {
			t.Logf("progress after the response: %s", m.Raw)
			continue
		}
		line := "progress " + strconv.FormatFloat(n.Progress, 'f', -1, 64) + "/" + strconv.FormatFloat(n.Total, 'f', -1, 64)
		if n.Message != "" {
			line += " " + n.Message
		}
		lines = append(lines, line)
	}
	return lines
}

// resultText returns the text of a tools/call result, or of the messages of
// a prompts/get result.
func resultText(t *testing.T, r result) string {
	t.Helper()
	var prompt struct {
		Messages []struct{ Content struct{ Text string } } `json:"messages"`
	}
	if json.Unmarshal([]byte(r.stdout), &prompt) == nil && len(prompt.Messages) > 0 {
		texts := make([]string, len(prompt.Messages))
		for i, m := range prompt.Messages {
			texts[i] = m.Content.Text
		}
		return strings.Join(texts, "\n")
	}
	return toolText(t, r)
}
