package recordings

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// sessionFrames is a session as mcpscope records one: for every hundred
// frames, 70 log notifications of a few hundred bytes, 20 tool results of
// 4 KiB of text, 2 tool listings of 20 KiB and 8 binary stream chunks of
// 16 KiB, each JSON frame decoded and annotated as a transport hands it.
func sessionFrames(b *testing.B, n int) []*capture.Frame {
	b.Helper()
	at := time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC)
	jsonFrame := func(body string) *capture.Frame {
		raw := []byte(body + "\n")
		m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
		if err != nil {
			b.Fatal(err)
		}
		return &capture.Frame{Dir: capture.In, Conn: "stdio", Raw: raw, Enc: proto.EncJSON, Msg: m,
			Fields: []proto.Field{{Offset: 0, Len: len(raw) - 1, Name: "body", Kind: proto.FieldBody}, {Offset: len(raw) - 1, Len: 1, Name: "LF", Kind: proto.FieldDelimiter}}}
	}
	logLine := jsonFrame(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"build","data":"` +
		strings.Repeat(`compiling package \"x\"\t`, 12) + `"}}`)
	result := jsonFrame(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` +
		strings.Repeat("line of a file, with <html> & \\\"quotes\\\" é\\n", 100) + `"}]}}`)
	var tools []string
	for i := range 60 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"%s","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}`, i, strings.Repeat("does a thing ", 16)))
	}
	listing := jsonFrame(`{"jsonrpc":"2.0","id":2,"result":{"tools":[` + strings.Join(tools, ",") + `]}}`)
	chunk := make([]byte, 16<<10)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	stream := &capture.Frame{Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 2, Tag: 1}, Raw: chunk, Enc: proto.EncBinary,
		Fields: []proto.Field{{Offset: 0, Len: 2, Name: "header"}, {Offset: 2, Len: len(chunk) - 2, Name: "payload", Kind: proto.FieldBody}}}
	out := make([]*capture.Frame, 0, n)
	for i := range n {
		var f *capture.Frame
		switch k := i % 100; {
		case k < 70:
			f = logLine
		case k < 90:
			f = result
		case k < 92:
			f = listing
		default:
			f = stream
		}
		c := *f
		c.Time = at.Add(time.Duration(i) * time.Microsecond)
		out = append(out, &c)
	}
	return out
}

// BenchmarkSessionRecordAndRead records a session of 20,000 frames to a
// file and reads it back with a Reader, as replay does, and reports the
// frames per second and the frame bytes (MB/s) of each half and of the
// whole.
func BenchmarkSessionRecordAndRead(b *testing.B) {
	frames := sessionFrames(b, 20_000)
	var raw int64
	for _, f := range frames {
		raw += int64(len(f.Raw))
	}
	var write, read time.Duration
	var size int64
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "s"+Ext)
		start := time.Now()
		w, err := Create(path, Header{Target: "demo", Transport: "stdio"}, Options{StreamMax: 1 << 40})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range frames {
			w.Append(f)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		r, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if rec.Kind == RecFrame {
				n++
			}
		}
		_ = r.Close()
		read += time.Since(mid)
		write += mid.Sub(start)
		if n != len(frames) {
			b.Fatalf("read %d frames of %d", n, len(frames))
		}
		st, _ := os.Stat(path)
		size = st.Size()
	}
	runs := float64(b.N)
	nf := float64(len(frames)) * runs
	mb := float64(raw) * runs / 1e6
	b.ReportMetric(nf/write.Seconds(), "write-frames/s")
	b.ReportMetric(mb/write.Seconds(), "write-MB/s")
	b.ReportMetric(nf/read.Seconds(), "read-frames/s")
	b.ReportMetric(mb/read.Seconds(), "read-MB/s")
	b.ReportMetric(nf/(write+read).Seconds(), "frames/s")
	b.ReportMetric(mb/(write+read).Seconds(), "MB/s")
	b.ReportMetric(float64(size)/1e6, "file-MB")
}
