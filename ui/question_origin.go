package ui

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// maxOriginScan bounds the frames read, newest first, to find what a
// question answers.
const maxOriginScan = 2048

// originText names what the question answers, for its title.
func (q *question) originText() string {
	if q.origin == "" {
		return "request id unknown"
	}
	return q.origin
}

// locateQuestion finds, among the newest captured frames, the one that
// asked a question: a server request of that method and params (legacy),
// or an input request of an input_required result (2026-07-28 MRTR). The
// session hands the handler only the method and the params, so the frame
// is found by them; frames already taken by other open questions are
// skipped. origin names it ("request 3", "input \"step1\" of the
// input_required result of request 5"); key identifies the frame.
func locateQuestion(st *capture.Store, method string, params json.RawMessage, taken map[string]bool) (origin, key string) {
	if st == nil {
		return "", ""
	}
	frames := st.Last(maxOriginScan)
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		m := f.Msg
		if f.Dir != capture.In || f.Chan.Kind != capture.Control || m == nil || m.ID == nil {
			continue
		}
		switch m.Kind() {
		case proto.KindRequest:
			k := "request " + f.Conn + " " + m.ID.Key()
			if m.Method == method && sameJSON(m.Params, params) && !taken[k] {
				return "request " + m.ID.String(), k
			}
		case proto.KindResult:
			if !bytes.Contains(m.Result, []byte(proto.ResultTypeInputRequired)) {
				continue
			}
			ir, err := proto.DecodeInputRequired(m.Result)
			if err != nil || !ir.NeedsInput() {
				continue
			}
			for _, in := range ir.InputKeys() {
				r := ir.InputRequests[in]
				k := "input " + f.Conn + " " + m.ID.Key() + " " + in
				if r.Method == method && sameJSON(r.Params, params) && !taken[k] {
					return fmt.Sprintf("input %q of the input_required result of request %s", in, m.ID), k
				}
			}
		}
	}
	return "", ""
}

// sameJSON reports whether two JSON texts are the same once compacted.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
