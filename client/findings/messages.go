package findings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// noteMessages judges the JSON-RPC messages of a control frame: the
// requests it sends, the answers it gives, the headers that carried it.
func (d *Detector) noteMessages(s *session, r *report) {
	f := r.f
	if legacyEndpoint(f) && s.once(CodeDeprecatedHTTPSSE) {
		r.add(CodeDeprecatedHTTPSSE, "the server announced a legacy HTTP+SSE endpoint (2024-11-05); Streamable HTTP replaced that transport", 0, 0, "")
	}
	msgs := messagesOf(f)
	if len(msgs) == 1 {
		d.checkHeaders(s, r, msgs[0])
	}
	for i, m := range msgs {
		at := ""
		if len(msgs) > 1 {
			at = "[" + strconv.Itoa(i) + "]."
		}
		switch m.Kind() {
		case jsonrpc.KindRequest:
			s.noteRequest(f.Dir, m)
			deprecatedRequest(s, r, m.Method, at+"method")
		case jsonrpc.KindNotification:
			if s.modern && m.Method == mcp.MethodNotifyMessage && f.Dir == capture.In && s.once(CodeDeprecatedLogging) {
				r.addPath(CodeDeprecatedLogging, "the server sent notifications/message on a 2026-07-28 session", at+"method")
			}
		case jsonrpc.KindResult, jsonrpc.KindError:
			s.noteAnswer(r, m, at)
		}
	}
}

// messagesOf returns the messages of a frame: its one message, or those
// of a batch, read again from its body.
func messagesOf(f *capture.Frame) []*jsonrpc.Message {
	if f.Msg != nil {
		if f.Msg.Violation != nil {
			return nil
		}
		return []*jsonrpc.Message{f.Msg}
	}
	if f.Err != nil || f.Enc != proto.EncJSON {
		return nil
	}
	body, _ := bodyOf(f)
	msgs, batch, err := jsonrpc.DecodeJSON(body)
	if err != nil || !batch {
		return nil
	}
	return msgs
}

// legacyEndpoint says whether f is the endpoint event of the legacy
// HTTP+SSE transport.
func legacyEndpoint(f *capture.Frame) bool {
	fd, ok := field(f, "event")
	return ok && f.Dir == capture.In && fd.Value == "endpoint"
}

// noteRequest remembers a request until its answer.
func (s *session) noteRequest(dir capture.Dir, m *jsonrpc.Message) {
	req := request{method: m.Method, modern: modernMeta(m.Params)}
	if len(req.method) > maxMethod {
		req.method = strings.Clone(req.method[:maxMethod]) // not the whole name's bytes
	}
	switch m.Method {
	case mcp.MethodToolsCall:
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(m.Params, &p)
		req.tool = nameKey(p.Name)
	case mcp.MethodTasksGet:
		var p mcp.TaskParams
		_ = json.Unmarshal(m.Params, &p)
		req.task = nameKey(p.TaskID)
	}
	if s.pending.put(idKey(dir, *m.ID), req) {
		s.forgot = true
	}
}

// deprecatedRequest reports a server's request for roots or sampling on a
// 2026-07-28 session.
func deprecatedRequest(s *session, r *report, method, path string) {
	if !s.modern || r.f.Dir != capture.In {
		return
	}
	switch {
	case method == mcp.MethodRootsList && s.once(CodeDeprecatedRoots):
		r.addPath(CodeDeprecatedRoots, "the server asked for roots/list on a 2026-07-28 session", path)
	case method == mcp.MethodSamplingCreateMessage && s.once(CodeDeprecatedSampling):
		r.addPath(CodeDeprecatedSampling, "the server asked for sampling/createMessage on a 2026-07-28 session", path)
	}
}

// noteAnswer matches an answer with its request and judges a result.
func (s *session) noteAnswer(r *report, m *jsonrpc.Message, at string) {
	if m.ID == nil || m.ID.IsNull() {
		return // an error about a request whose id could not be read
	}
	asker := capture.Out
	if r.f.Dir == capture.Out {
		asker = capture.In
	}
	key := idKey(asker, *m.ID)
	req, ok := s.pending.take(key)
	switch {
	case !ok && s.answered.has(key):
		r.addPath(CodeAnswerDuplicate, fmt.Sprintf("id %s was answered a second time", idText(*m.ID)), at+"id")
		return
	case !ok && !s.forgot:
		r.addPath(CodeAnswerUnknownID, fmt.Sprintf("an answer to id %s, which %s never sent", idText(*m.ID), who(asker)), at+"id")
		return
	case !ok:
		return
	}
	s.answered.put(key, struct{}{})
	if m.Kind() != jsonrpc.KindResult {
		return
	}
	switch {
	case req.method == mcp.MethodInitialize:
		// The era is what initialize agreed on, whatever a probe before
		// it was answered (a server may answer server/discover and still
		// be initialized to an older version).
		var agreed struct {
			Version string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Result, &agreed)
		s.modern, s.agreed = mcp.IsModernVersion(agreed.Version), true
	case req.modern && !s.agreed:
		s.modern = true // a 2026-07-28 request answered: the session speaks it (a probe refused does not say so)
	}
	s.judgeResult(r, req, m.Result, at+"result")
}

// idText is an id for a summary: a number as it is, a string quoted.
func idText(id jsonrpc.ID) string {
	if str, ok := id.Str(); ok {
		return quote(str)
	}
	return id.String()
}

// who names the side that sent requests going dir.
func who(dir capture.Dir) string {
	if dir == capture.Out {
		return "the client"
	}
	return "the server"
}

// judgeResult checks a result against its request: its resultType, what
// a tools/list teaches, a tools/call's structuredContent.
func (s *session) judgeResult(r *report, req request, result json.RawMessage, path string) {
	if !req.modern && req.method != mcp.MethodToolsList && req.method != mcp.MethodToolsCall && req.method != mcp.MethodTasksGet {
		return // nothing to judge: spare the decoding
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(result, &members) != nil || members == nil {
		return
	}
	if _, ok := members["resultType"]; req.modern && !ok {
		r.addPath(CodeResultTypeMissing, fmt.Sprintf("the result to %s carries no resultType", req.method), path)
	}
	deprecatedInputs(s, r, result, path+".inputRequests")
	switch req.method {
	case mcp.MethodToolsList:
		s.learnTools(r, members["tools"], path+".tools")
	case mcp.MethodToolsCall:
		if sc, ok := members["structuredContent"]; ok && !isObject(sc) {
			r.addPath(CodeStructuredNotObj, "the result's structuredContent is not a JSON object", path+".structuredContent")
		}
		s.judgeToolResult(r, req.tool, result, members, path)
	case mcp.MethodTasksGet:
		s.judgeTaskResult(r, req.task, members, path)
	}
}

// deprecatedInputs reports the roots and sampling requests an
// input_required result carries (2026-07-28: deprecated, still working).
func deprecatedInputs(s *session, r *report, result json.RawMessage, path string) {
	if !s.modern {
		return
	}
	for _, a := range mcp.DeprecatedAsks(mcp.DeprecatedSince, result) {
		switch {
		case a.Method == mcp.MethodRootsList && s.once(CodeDeprecatedRoots):
			r.addPath(CodeDeprecatedRoots, "the server asks for roots/list in an input_required result", path+"."+a.Key)
		case a.Method == mcp.MethodSamplingCreateMessage && s.once(CodeDeprecatedSampling):
			r.addPath(CodeDeprecatedSampling, "the server asks for sampling/createMessage in an input_required result", path+"."+a.Key)
		}
	}
}

// learnTools learns the outputSchemas of a tools/list page and reports
// the tools whose x-mcp-header annotations are invalid (2026-07-28 over
// HTTP, where they become headers).
func (s *session) learnTools(r *report, tools json.RawMessage, path string) {
	var list []json.RawMessage
	if json.Unmarshal(tools, &list) != nil {
		return
	}
	for i, raw := range list {
		var t struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if json.Unmarshal(raw, &t) != nil || t.Name == "" {
			continue
		}
		if err := client.ParamHeadersError(t.InputSchema); err != nil && s.modern && s.http {
			r.addPath(CodeParamHeaderInvalid, fmt.Sprintf("tool %s: %v", quote(t.Name), err), fmt.Sprintf("%s[%d].inputSchema", path, i))
		}
		if schemas := client.OutputSchemas([]json.RawMessage{raw}); schemas[t.Name] != nil {
			s.tools.put(nameKey(t.Name), newTool(t.Name, schemas[t.Name], len(t.OutputSchema)))
			s.schemaBytes += len(t.OutputSchema)
		} else {
			s.tools.take(nameKey(t.Name))
		}
	}
}

// judgeToolResult reports a tools/call result that its tool's
// outputSchema refuses, or that lacks the structuredContent it promises.
// A result that hands a task is judged when tasks/get brings the task's
// result: the task is remembered with its tool.
func (s *session) judgeToolResult(r *report, name uint64, result json.RawMessage, members map[string]json.RawMessage, path string) {
	t, ok := s.tools.get(name)
	if !ok {
		return
	}
	if id, task := handsTask(members); task {
		s.tasks.put(nameKey(id), name)
		return
	}
	judgeTool(r, t, result, path)
}

// judgeTaskResult judges the result a completed task's tasks/get
// inlines (result.result) against the outputSchema of the tool whose
// call started the task.
func (s *session) judgeTaskResult(r *report, task uint64, members map[string]json.RawMessage, path string) {
	var status string
	if json.Unmarshal(members["status"], &status) != nil || mcp.TaskStatus(status) != mcp.TaskCompleted || len(members["result"]) == 0 {
		return
	}
	name, ok := s.tasks.take(task)
	if !ok {
		return
	}
	if t, ok := s.tools.get(name); ok {
		judgeTool(r, t, members["result"], path+".result")
	}
}

// judgeTool reports a tool's result that its outputSchema refuses, or
// that lacks the structuredContent it promises. A result or an
// outputSchema past deferOver is left to the caller (Deferred): the first
// judgement against a large schema compiles it, which costs more than
// judging a small result.
func judgeTool(r *report, t *tool, result json.RawMessage, path string) {
	if large := len(t.schema) > r.deferOver; r.deferOver > 0 && (len(result) > r.deferOver || large) {
		r.deferred = append(r.deferred, Deferred{f: r.f, seq: r.seq, t: t, result: result, path: path, shared: large})
		return
	}
	failure := t.judge(result)
	switch {
	case failure == nil:
	case failure.Kind == client.ToolOutputInvalid:
		r.addPath(CodeStructuredInvalid, failure.Error(), path+".structuredContent")
	case failure.Kind == client.ToolOutputMissing:
		r.addPath(CodeStructuredMissing, failure.Error(), path)
	}
}

// isObject says whether a JSON value is an object.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// handsTask says whether a tools/call result, read as its members, is a
// task's handle (resultType "task"), and names the task.
func handsTask(members map[string]json.RawMessage) (taskID string, task bool) {
	var resultType string
	if json.Unmarshal(members["resultType"], &resultType) != nil || resultType != mcp.ResultTypeTask {
		return "", false
	}
	_ = json.Unmarshal(members["taskId"], &taskID)
	return taskID, true
}
