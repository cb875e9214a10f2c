package mcphttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Event types of seed 004's SSE answers.
const (
	eventResult   = "result"   // a fragment of the result
	eventComplete = "complete" // the whole response
	eventError    = "error"    // an error envelope; ends the call
)

// syntheticCode is the JSON-RPC code of the error mcpscope makes up for a
// seed-004 HTTP status whose body is not an error envelope (the seed: the
// client wraps the HTTP status in a synthetic MCP error).
const syntheticCode = -32000

// toolsAnswer reads what answers a POST of seed 004's dialect.
func (t *Transport) toolsAnswer(ex *exchange, rsp *http.Response) {
	switch st := rsp.StatusCode; {
	case st >= 300:
		b, _ := io.ReadAll(io.LimitReader(rsp.Body, DefaultErrorBody))
		if t.deliverErrorBody(ex, b) {
			return
		}
		if len(b) > 0 {
			t.reportText(ex.conn, "body", b)
		}
		t.synthesize(ex, rsp, b)
	case mediaType(rsp.Header) == "text/event-stream" && httphead.UnaskedEncoding(rsp.Header) == nil:
		err := t.followSSE(ex, ex.conn, answerStart(ex), func() error { return t.readToolEvents(ex, rsp.Body) })
		if err != nil && ex.request && !ex.isAnswered() && ex.ctx.Err() == nil {
			ex.fail(http.StatusOK, fmt.Errorf("the answer stream of %s ended before its complete event, %w", ex.msg.Describe(), err))
		}
	default:
		t.readAnswer(ex, rsp)
	}
}

// synthesize answers the request with the error the seed asks for when a
// 4xx or 5xx carries no error envelope: its code syntheticCode, its
// message the HTTP status, its data {"httpStatus": N}. The capture shows
// it as a note, since no server wrote it.
func (t *Transport) synthesize(ex *exchange, rsp *http.Response, body []byte) {
	if !ex.request {
		ex.fail(rsp.StatusCode, statusError(rsp, body))
		return
	}
	id := *ex.msg.ID
	data, _ := json.Marshal(map[string]any{"httpStatus": rsp.StatusCode})
	m := &jsonrpc.Message{JSONRPC: "2.0", ID: &id, Error: &jsonrpc.Error{Code: syntheticCode, Message: statusError(rsp, body).Error(), Data: data}}
	raw, _ := m.EncodeJSON()
	t.reportNote(capture.In, ex.conn, "synthetic answer (no error envelope in the body): "+string(raw))
	t.route(ex, m)
}

// readToolEvents reads a seed-004 SSE answer: result fragments, shown as
// they come and reassembled; complete, the whole response; error, which
// ends the call. Comments (heartbeats) are frames of their own. It
// returns nil once the answer came, else a *toolsCut saying how the
// stream ended before it.
func (t *Transport) readToolEvents(ex *exchange, body io.Reader) error {
	rd := newEventReader(body, t.cfg.MaxFrameSize)
	var parts fragments
	for {
		ev, err := rd.Next()
		if err != nil {
			return &toolsCut{fragments: parts.n, err: err}
		}
		raw, data := ev.Raw, ev.DataBytes
		f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: int(ev.Length),
			Fields: httphead.SSEEventFields(raw), Enc: proto.EncJSON}
		var deliver *jsonrpc.Message
		switch {
		case !ev.Dispatch:
			f.Enc = proto.EncText
		case ev.Type == eventResult:
			if err := parts.add(data); err != nil {
				f.Err = err
			}
		case ev.Type == eventComplete || ev.Type == eventError:
			deliver, f.Err = ex.terminal(data, &parts)
			f.Msg = deliver
		default:
			deliver = nil
			for _, m := range t.decodeEvent(ev, data, f) {
				t.route(ex, m)
			}
		}
		t.sseEvent(ex.conn, t.report(capture.In, ex.conn, f), ev)
		if deliver != nil {
			t.route(ex, deliver)
			return nil
		}
	}
}

// toolsCut is how a seed-004 answer stream ended before its complete or
// error event.
type toolsCut struct {
	fragments int   // result fragments read before
	err       error // why the stream ended (io.EOF for a clean end)
}

func (c *toolsCut) Error() string {
	return fmt.Sprintf("after %d result fragments (%s)", c.fragments, streamEnd(c.err))
}

func (c *toolsCut) Unwrap() error { return c.err }

// terminal reads the data of a complete or error event as the request's
// response: a JSON-RPC response, or a bare result or error object that
// the request's id is given to. A complete response without content takes
// the content the fragments carried.
func (ex *exchange) terminal(data []byte, parts *fragments) (*jsonrpc.Message, error) {
	msgs, batch, err := jsonrpc.DecodeJSON(data)
	if err == nil && !batch && msgs[0].IsResponse() {
		m := msgs[0]
		if m.Error != nil && (m.ID == nil || m.ID.IsNull()) && ex.request {
			id := *ex.msg.ID
			m.ID = &id
		}
		if m.Result != nil {
			m.Result = parts.fill(m.Result)
		}
		return m, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || !ex.request {
		return nil, fmt.Errorf("the event's data is neither a JSON-RPC response nor a result object")
	}
	id := *ex.msg.ID
	m := &jsonrpc.Message{JSONRPC: "2.0", ID: &id, Raw: data}
	if e, ok := obj["error"]; ok && len(obj) <= 2 {
		var pe jsonrpc.Error
		if json.Unmarshal(e, &pe) == nil {
			m.Error = &pe
			return m, nil
		}
	}
	m.Result = parts.fill(data)
	return m, nil
}

// fragments reassembles result fragments: content items are appended in
// order, any other member takes its latest value.
type fragments struct {
	n       int
	content []json.RawMessage
	other   map[string]json.RawMessage
}

// add takes one fragment: a result object, or a JSON-RPC response whose
// result is one.
func (p *fragments) add(data []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("the result fragment is not a JSON object: %w", err)
	}
	if r, ok := obj["result"]; ok && obj["jsonrpc"] != nil {
		obj = nil
		if err := json.Unmarshal(r, &obj); err != nil {
			return fmt.Errorf("the result fragment's result is not a JSON object: %w", err)
		}
	}
	p.n++
	for k, v := range obj {
		if k == "content" {
			var items []json.RawMessage
			if err := json.Unmarshal(v, &items); err != nil {
				return fmt.Errorf("the result fragment's content is not an array: %w", err)
			}
			p.content = append(p.content, items...)
			continue
		}
		if p.other == nil {
			p.other = make(map[string]json.RawMessage)
		}
		p.other[k] = v
	}
	return nil
}

// fill gives a result whose content is missing or empty the content the
// fragments carried (and their other members it lacks).
func (p *fragments) fill(result json.RawMessage) json.RawMessage {
	if p.n == 0 {
		return result
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(result, &obj) != nil {
		return result
	}
	if c, ok := obj["content"]; ok && !bytes.Equal(bytes.TrimSpace(c), []byte("[]")) {
		return result
	}
	if len(p.content) > 0 {
		obj["content"], _ = json.Marshal(p.content)
	}
	for k, v := range p.other {
		if _, ok := obj[k]; !ok {
			obj[k] = v
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return result
	}
	return out
}
