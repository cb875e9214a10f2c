package live

import (
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// A viewer learns how streams and SSE streams ended, their labels and
// announced sizes, as the session's store holds them.
func TestLiveStreamAndSSEStatesReachViewers(t *testing.T) {
	s := openSession(t, "streams", capture.Config{}, time.Time{})
	h := serve(t, s)
	v := dial(t, h)
	key := capture.StreamKey{Conn: "wt", ReqID: 7, Tag: 1}
	tap := s.Tap()
	tap.Append(&capture.Frame{Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 7, Tag: 1}, Raw: []byte("payload"), Enc: proto.EncBinary})
	tap.Note(capture.StreamLabelled{Key: key, Label: capture.StreamLabel{Text: "audio/pcm"}})
	tap.Note(capture.StreamSized{Key: key, Size: 100})
	tap.Note(capture.StreamMarked{Key: key, State: capture.StreamReset, Err: errors.New("cancelled")})
	tap.Note(capture.SSEOpened{Conn: "http POST 1", Start: capture.SSEStart{Kind: capture.SSEAnswer, Method: "tools/call"}})
	tap.Note(capture.SSEEnded{Conn: "http POST 1", State: capture.SSEBroken, Why: "the server went away"})
	sub, cancel := v.Store().Subscribe()
	defer cancel()
	eventually(t, "the stream's end and the SSE stream's", sub, func() bool {
		st, ok := v.Store().Stream(key)
		sse := v.Store().SSEStreams()
		return ok && st.State == capture.StreamReset && len(sse) == 1 && sse[0].State == capture.SSEBroken
	})
	st, _ := v.Store().Stream(key)
	if st.Label.Text != "audio/pcm" || st.Size != 100 || st.Err == nil || st.Err.Error() != "cancelled" {
		t.Errorf("the viewer's stream: %+v", st)
	}
	if sse := v.Store().SSEStreams()[0]; sse.Method != "tools/call" || sse.Why != "the server went away" || sse.Kind != capture.SSEAnswer {
		t.Errorf("the viewer's SSE stream: %+v", sse)
	}
}
